// Downloads one image URL within the limits of docs/conventions.md: http(s) only, at most
// MAX_REDIRECTS redirects (each hop checked again), a deadline for the whole download,
// a size limit enforced while reading, and only image/* content. Every refusal is an
// ImageFailure saying whether trying again later could help.
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { bareHost, checkedLookup, refusalIn, findCause, type AddressPolicy } from '../../lib/outbound-addresses.ts';

export const MAX_REDIRECTS = 5;

export class ImageFailure extends Error {
  /** permanent: the same URL will fail again (refused, 404, not an image, too large). */
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const permanent = (message: string) => new ImageFailure(message, true);
const transient = (message: string) => new ImageFailure(message, false);

export interface Downloaded {
  body: Buffer;
  contentType: string;
  /** The URL the image came from after redirects. */
  finalUrl: string;
}

export interface FetcherOptions {
  maxBytes: number;
  timeoutMs: number;
  policy: AddressPolicy;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class ImageFetcher {
  private readonly agent: Agent;

  constructor(private readonly options: FetcherOptions) {
    // Every connection resolves names through the checking lookup; an IP literal skips
    // DNS, so hops to literals are checked before connecting (checkHost).
    this.agent = new Agent({ connect: { lookup: checkedLookup(options.policy), timeout: options.timeoutMs } });
  }

  async close() {
    await this.agent.close();
  }

  /** Downloads `url`; `stop` aborts it (the worker is shutting down). */
  async download(url: string, stop?: AbortSignal): Promise<Downloaded> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const signal = stop ? AbortSignal.any([deadline, stop]) : deadline;
    try {
      return await this.follow(url, signal);
    } catch (error) {
      if (error instanceof ImageFailure) throw error;
      if (stop?.aborted) throw error;
      if (deadline.aborted) throw transient(`the download did not finish within ${this.options.timeoutMs / 1000} s`);
      const refused = refusalIn(error);
      if (refused) throw permanent(`refused: ${refused.message}`);
      const cause = findCause(error, (e) => typeof (e as { code?: unknown }).code === 'string') as { code?: string; message: string } | undefined;
      throw transient(`the download failed: ${cause?.code ?? ''} ${cause?.message ?? String(error)}`.replace(/\s+/g, ' ').trim());
    }
  }

  private async follow(start: string, signal: AbortSignal): Promise<Downloaded> {
    let url = parseUrl(start);
    for (let hop = 0; ; hop++) {
      this.checkHost(url);
      const response = await request(url, {
        method: 'GET',
        dispatcher: this.agent,
        signal,
        headers: { accept: 'image/*', 'user-agent': 'Surtido-Images/1.0' },
      });
      const { statusCode, headers, body } = response;
      if (REDIRECTS.has(statusCode)) {
        discard(body);
        const location = header(headers.location);
        if (!location) throw permanent(`${statusCode} redirect without a Location`);
        if (hop >= MAX_REDIRECTS) throw permanent(`more than ${MAX_REDIRECTS} redirects`);
        url = parseUrl(location, url);
        continue;
      }
      if (statusCode < 200 || statusCode > 299) {
        discard(body);
        // Server trouble and rate limits may pass; any other answer will be the same next time.
        const retry = statusCode >= 500 || statusCode === 408 || statusCode === 429;
        const message = `the server answered ${statusCode}`;
        throw retry ? transient(message) : permanent(message);
      }
      const contentType = (header(headers['content-type']) ?? '').split(';')[0]!.trim().toLowerCase();
      if (!contentType.startsWith('image/')) {
        discard(body);
        throw permanent(`not an image: the content type is ${contentType ? `"${contentType}"` : 'missing'}`);
      }
      const declared = Number(header(headers['content-length']));
      if (Number.isFinite(declared) && declared > this.options.maxBytes) {
        discard(body);
        throw permanent(`too large: ${declared} bytes, the limit is ${this.options.maxBytes}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > this.options.maxBytes) {
          discard(body);
          throw permanent(`too large: more than ${this.options.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { body: Buffer.concat(chunks), contentType, finalUrl: url.href };
    }
  }

  private checkHost(url: URL) {
    const refused = literalRefusal(url, this.options.policy);
    if (refused) throw permanent(`refused: ${refused}`);
  }
}

/** The refusal of a URL whose host is an IP literal (names are checked when resolved). */
function literalRefusal(url: URL, policy: AddressPolicy): string | undefined {
  const host = bareHost(url.hostname);
  return /^[\d.]+$|:/.test(host) ? policy(host) : undefined;
}

function parseUrl(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw permanent(`not a valid URL: ${value.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw permanent(`only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw permanent('URLs with credentials are not fetched');
  return url;
}

/**
 * Drops a response body not read to its end. Destroying it emits an abort error nobody
 * waits for; that error is expected here, so it is listened to and ignored.
 */
function discard(body: Readable) {
  body.on('error', () => {});
  body.destroy();
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

