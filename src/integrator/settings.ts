// Where the integrator CLI connects, from flags or the environment (flags win). This is a
// client program shipped with the SDK, not part of the service, so it reads its own
// SURTIDO_* variables here rather than through src/config.ts. Prefer the environment for
// the secret: flags show in the process list.
import type { SurtidoClientOptions } from '../client/index.ts';

/** A problem with what the user asked (flags, file, columns): reported with a pointer to --help. */
export class UsageError extends Error {}

export const CONNECTION_FLAGS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
} as const;

const SOURCES = [
  ['baseUrl', 'url', 'SURTIDO_URL'],
  ['apiKey', 'api-key', 'SURTIDO_API_KEY'],
  ['clientId', 'client-id', 'SURTIDO_CLIENT_ID'],
  ['clientSecret', 'client-secret', 'SURTIDO_CLIENT_SECRET'],
] as const;

export type Connection = Pick<SurtidoClientOptions, 'baseUrl' | 'apiKey' | 'clientId' | 'clientSecret'>;

export function connection(flags: Record<string, unknown>, env: Record<string, string | undefined>): Connection {
  const found: Partial<Connection> = {};
  const missing: string[] = [];
  for (const [key, flag, variable] of SOURCES) {
    const value = (typeof flags[flag] === 'string' ? (flags[flag] as string) : undefined) || env[variable];
    if (value) found[key] = value;
    else missing.push(`--${flag} or ${variable}`);
  }
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`);
  if (!/^https?:\/\/[^/]/.test(found.baseUrl!)) throw new UsageError(`the URL must start with http:// or https://, got ${found.baseUrl}`);
  return found as Connection;
}

/** A whole number flag within bounds, or its default. */
export function intFlag(flags: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got ${String(raw)}`);
  return value;
}
