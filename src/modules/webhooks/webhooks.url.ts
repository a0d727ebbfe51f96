// The parts of a webhook base URL (README, "A base URL with credentials or a query"):
// - an event's path is joined to the URL's path, before its query;
// - the user and password of the URL are sent as HTTP Basic credentials (webhooks.sender.ts);
// - what any answer shows of the URL has the password and the query's values masked, so a
//   token a supplier put there reaches nobody who merely reads the settings;
// - a URL still holding the mask is refused as input: saving the shown URL back would
//   replace the real password with the mask.

/** What stands for a hidden part of a URL in every answer. */
export const MASK = '***';

// scheme, userinfo (up to the last @ before the path, as the WHATWG parser reads it), the rest, query, fragment.
const PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^/?#]*)@)?([^?#]*)(?:\?([^#]*))?(#.*)?$/i;

const maskedUserinfo = (userinfo: string) => {
  const colon = userinfo.indexOf(':');
  // A user name alone is usually a token (`https://<token>@host`): it is masked whole.
  return colon < 0 ? MASK : `${userinfo.slice(0, colon)}:${MASK}`;
};

const maskedQuery = (query: string) =>
  query
    .split('&')
    .map((part) => {
      if (part === '') return part;
      const eq = part.indexOf('=');
      return eq < 0 ? MASK : `${part.slice(0, eq)}=${MASK}`;
    })
    .join('&');

/**
 * The URL as answers show it: the password (or a lone user name) and every query value
 * replaced by `***`. A URL with neither is answered exactly as it was set.
 */
export function maskedUrl(raw: string): string;
export function maskedUrl(raw: string | null): string | null;
export function maskedUrl(raw: string | null): string | null {
  if (raw === null) return null;
  const m = PARTS.exec(raw);
  // Not shaped like a URL (the schema never lets one in): show nothing of it rather than all of it.
  if (!m) return MASK;
  const [, scheme, userinfo, rest, query, fragment] = m;
  if (userinfo === undefined && query === undefined) return raw;
  return `${scheme}${userinfo === undefined ? '' : `${maskedUserinfo(userinfo)}@`}${rest}${query === undefined ? '' : `?${maskedQuery(query)}`}${fragment ?? ''}`;
}

/** Whether the URL still holds a masked part where the answers put one (then it is no URL to save). */
export function holdsMask(raw: string): boolean {
  const m = PARTS.exec(raw);
  if (!m) return false;
  const [, , userinfo, , query] = m;
  if (userinfo !== undefined && (userinfo === MASK || userinfo.slice(userinfo.indexOf(':') + 1) === MASK)) return true;
  return query !== undefined && query.split('&').some((part) => part === MASK || part.slice(part.indexOf('=') + 1) === MASK);
}

/**
 * The address of an event: the base URL with the event's path joined to its path, the
 * query kept after it (`https://erp.example/api?token=t` + `/webhooks/order` is
 * `https://erp.example/api/webhooks/order?token=t`), the fragment dropped. Credentials
 * stay in it; the sender moves them to the Authorization header.
 */
export function webhookUrl(baseUrl: string, path: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // The sender refuses it, without repeating it.
    return `${baseUrl.replace(/\/+$/, '')}${path}`;
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${path}`;
  url.hash = '';
  return url.href;
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * The URL's user and password as an `Authorization: Basic` value (percent-decoded, as
 * curl and browsers send them), taken out of `url`; undefined without credentials.
 */
export function basicCredentials(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const value = `Basic ${Buffer.from(`${decoded(url.username)}:${decoded(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  return value;
}
