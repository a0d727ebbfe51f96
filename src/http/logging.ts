// The process's log: JSON lines (production, or whenever stdout is not a terminal), or
// pino-pretty's readable lines for a person at a terminal in development. Either way
// requests are not logged one line each (app.ts); errors and slow requests are, one line
// at most per request. Credentials, secrets and sign-in codes are never written: the
// paths below are replaced by "[redacted]" wherever a log call would include them.
import type { Config } from '../config.ts';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'authorization',
  'apiKey',
  'clientSecret',
  'client_secret',
  'secret',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'code',
  'body.clientSecret',
  'body.client_secret',
  'body.code',
  'body.password',
  'body.token',
  'body.secret',
  'body.apiKey',
  // A database error's statement parameters (PGlite attaches them), its detail ("Failing row
  // contains ...") and its context (a JSON value's text) hold the data being written: a
  // batch's items, an import's rows. The message, code, constraint and SQL text stay.
  'err.params',
  'err.detail',
  'err.where',
];

export function loggerOptions(config: Pick<Config, 'logLevel' | 'logFormat'>) {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(config.logFormat === 'pretty'
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true } } }
      : {}),
  };
}
