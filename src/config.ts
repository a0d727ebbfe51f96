// The only reader of process.env. Every setting is declared once below: its variable, how
// it is read (type, bounds, default), what it means, and, by the key it sits under, the
// Config field it feeds. The Config type, loadConfig and README's settings table
// (`npm run docs:settings`) all come from these declarations. Every setting is read once,
// at start, into a frozen typed object; a malformed value stops the start with a message
// naming it. The builders are in src/config/declare.ts.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import {
  bool,
  ConfigError,
  derived,
  group,
  int,
  nodeEnvOf,
  oneOf,
  readSettings,
  renderSettingsTable as renderTable,
  setting,
  text,
  url,
  wholeNumber,
  type Env,
  type Values,
} from './config/declare.ts';

export { ConfigError };

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${bytes / MiB} MiB`;

const port = int({ name: 'PORT', default: 3000, min: 0, max: 65535, doc: 'the port the API listens on' });
const host = text({ name: 'HOST', default: '127.0.0.1', doc: 'the address the API listens on' });

function isKnown(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch {
    return false; // Intl throws RangeError for an unknown zone, code or a malformed tag: that is the answer.
  }
}

/**
 * TRUST_PROXY: unset or false, none; a whole number, that many proxy hops in front of the
 * service; otherwise a comma-separated list of addresses, CIDR ranges, or proxy-addr's
 * names (loopback, linklocal, uniquelocal). `true` (believe any sender) is refused: every
 * client could then choose its own address and escape the per-address limits.
 */
function trustProxy(value: string | undefined): false | number | string[] {
  const raw = (value ?? '').trim();
  if (raw === '' || /^(0|false|no|off)$/i.test(raw)) return false;
  if (/^\d+$/.test(raw)) return wholeNumber('TRUST_PROXY', raw, 1, 32);
  if (/^(true|yes|on)$/i.test(raw)) {
    throw new ConfigError('TRUST_PROXY=true would believe any client about its own address; name the proxies (addresses or CIDRs) or give a hop count');
  }
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) continue;
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) throw new ConfigError(`TRUST_PROXY must be false, a hop count, or addresses and CIDR ranges separated by commas; "${entry}" is none of these`);
  }
  return entries;
}

/** "X is required when A, B are set". */
function requiredWhen(required: string, given: readonly string[]): ConfigError {
  return new ConfigError(`${required} required when ${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set`);
}

const settings = {
  port,
  host,
  databaseUrl: text({
    name: 'DATABASE_URL',
    doc: 'PostgreSQL connection string; unset: embedded PGlite',
    check: (v) => /^postgres(ql)?:\/\//.test(v),
    must: 'be a postgres:// or postgresql:// connection string',
    secret: true,
  }),
  databasePreparedStatements: bool({
    name: 'DATABASE_PREPARED_STATEMENTS',
    default: true,
    doc: 'PostgreSQL: run statements as named prepared statements; `false` behind PgBouncer older than 1.21 in transaction mode ([docs/scaling.md](docs/scaling.md))',
  }),
  databasePoolSize: int({
    name: 'DATABASE_POOL_SIZE',
    default: 10,
    min: 1,
    max: 1000,
    doc: "PostgreSQL: connections each process keeps (API and workers share them); every process's pool together must stay under the server's `max_connections` ([docs/scaling.md](docs/scaling.md))",
  }),
  dataDir: text({ name: 'DATA_DIR', default: './data', map: (v) => path.resolve(v), doc: 'embedded database, stored images and other local state' }),
  adminToken: setting({
    name: 'ADMIN_TOKEN',
    doc: "the admin API's bearer token (16+ characters)",
    shown: 'generated and printed in development; required in production',
    secret: true,
    parse: (raw, ctx): string => {
      if (raw === undefined) {
        if (ctx.production) throw new ConfigError('ADMIN_TOKEN is required when NODE_ENV=production');
        return `adm_${randomBytes(24).toString('base64url')}`;
      }
      if (raw.length < 16) throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
      return raw;
    },
  }),
  /** True when ADMIN_TOKEN was not set and one was generated for this run. */
  adminTokenGenerated: derived((env) => !env.ADMIN_TOKEN),
  env: setting({
    name: 'NODE_ENV',
    doc: '`production`, `development` or `test`, nothing else; `production` turns every development convenience off and requires `ADMIN_TOKEN`, `JWT_SECRET` and `METRICS_TOKEN` or `METRICS_PORT` ([docs/operations.md](docs/operations.md#production))',
    shown: 'unset: `development`',
    parse: nodeEnvOf,
  }),
  demoSupplier: bool({
    name: 'DEMO_SUPPLIER',
    default: (ctx) => ctx.nodeEnv === 'development',
    offInProduction: true,
    shown: '`true` in development, else `false`',
    doc: 'whether an empty database gets the demo supplier at start (never in production)',
  }),
  allowPrivateAddresses: bool({
    name: 'ALLOW_PRIVATE_ADDRESSES',
    default: (ctx) => !ctx.production,
    offInProduction: true,
    shown: '`true` in development and test; never in production',
    doc: 'whether webhooks and image downloads may reach private addresses',
  }),
  publicUrl: text({
    name: 'PUBLIC_URL',
    default: (ctx) => `http://${ctx.read(host)}:${ctx.read(port)}`,
    shown: '`http://HOST:PORT`',
    check: (v) => isKnown(() => new URL(v)),
    must: 'be an absolute URL',
    map: (v) => v.replace(/\/+$/, ''),
    doc: 'base URL of links the service hands out',
  }),
  timezone: text({
    name: 'TIMEZONE',
    default: 'UTC',
    check: (v) => isKnown(() => new Intl.DateTimeFormat('en-US', { timeZone: v })),
    must: 'be a known IANA time zone',
    doc: "the platform's timezone for calendar dates",
  }),
  rateLimitRps: int({ name: 'RATE_LIMIT_RPS', default: 100, min: 1, doc: 'requests per second per API key (credential)' }),
  rateLimitBurst: int({ name: 'RATE_LIMIT_BURST', default: 200, min: 1, doc: 'requests an API key may send at once, saved up while it is idle (the burst)' }),
  loginRateLimitPerMinute: int({
    name: 'LOGIN_RATE_LIMIT_PER_MINUTE',
    default: 10,
    min: 1,
    doc: '`POST /login`: successful logins per API key, and failed ones per API key and client address, counted apart',
  }),
  authRateLimitPerMinute: int({
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    default: 30,
    min: 1,
    doc: '`POST /app/auth/code` and `POST /app/auth/token`: requests per client address, each route counted apart',
  }),
  storeWriteRateLimitPerMinute: int({
    name: 'STORE_WRITE_RATE_LIMIT_PER_MINUTE',
    default: 60,
    min: 1,
    doc: "store app writes (carts priced, orders, tickets, notifications read) per store user; signing out is never limited",
  }),
  memberInvitationsPerHour: int({
    name: 'MEMBER_INVITATIONS_PER_HOUR',
    default: 20,
    min: 1,
    doc: '`POST /member`: invitations a supplier sends (each one an email)',
  }),
  rateLimitMaxKeys: int({
    name: 'RATE_LIMIT_MAX_KEYS',
    default: 10_000,
    min: 10,
    max: 10_000_000,
    doc: 'keys one rate limiter keeps at most (at the cap, resting buckets are dropped first; [docs/security.md](docs/security.md))',
  }),
  /** Which proxies' X-Forwarded-For is believed for the client address: none (false), a hop count, or addresses/CIDRs. */
  trustProxy: setting({
    name: 'TRUST_PROXY',
    doc: 'whose `X-Forwarded-For` gives the client address: `false`, a hop count, or proxy addresses and CIDR ranges separated by commas (`true` is refused)',
    shown: '`false`',
    parse: trustProxy,
  }),
  tokenTtlSeconds: int({ name: 'TOKEN_TTL_SECONDS', default: 3600, min: 1, doc: 'access token lifetime' }),
  jwtSecret: setting({
    name: 'JWT_SECRET',
    secret: true,
    doc: 'token signing key (32+ characters)',
    shown: 'development and test: generated once and kept in the database; required in production',
    parse: (raw, ctx): string | undefined => {
      // A key kept in the database signs tokens for whoever holds a copy of it (a backup, a
      // restored dump): production keeps its key outside.
      if (raw === undefined && ctx.production) {
        throw new ConfigError('JWT_SECRET is required when NODE_ENV=production (32+ characters, e.g. `openssl rand -base64 48`): a key generated and kept in the database would let any copy of it sign tokens');
      }
      if (raw !== undefined && raw.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
      return raw;
    },
  }),
  bodyLimitBytes: int({ name: 'BODY_LIMIT_BYTES', default: MiB, min: 1024, shownAs: mib, doc: 'request body limit of ordinary JSON routes' }),
  batchBodyLimitBytes: int({
    name: 'BATCH_BODY_LIMIT_BYTES',
    default: 32 * MiB,
    min: 1024,
    shownAs: mib,
    doc: 'request body limit of batch endpoints and file imports (`/batch/*`, `/order/bulk-import`)',
  }),
  maxImportBytes: int({
    name: 'MAX_IMPORT_BYTES',
    default: 20 * MiB,
    min: 1024,
    max: 256 * MiB,
    shownAs: mib,
    doc: 'largest file `POST /import/{kind}` takes (a larger one is refused with 413); the file is held once, as the bytes it arrived in, while its rows are read',
  }),
  signInBodyLimitBytes: int({
    name: 'SIGN_IN_BODY_LIMIT_BYTES',
    default: 4096,
    min: 512,
    max: MiB,
    doc: 'request body limit of `/login`, `/app/auth/*` and `/console/auth/*`',
  }),
  requestTimeoutMs: int({
    name: 'REQUEST_TIMEOUT_MS',
    default: 60_000,
    min: 0,
    max: 3_600_000,
    doc: 'time a client has to send a whole request, headers and body (`0`: none); a slow client is answered 408 and disconnected',
  }),
  headersTimeoutMs: int({
    name: 'HEADERS_TIMEOUT_MS',
    default: 10_000,
    min: 100,
    max: 600_000,
    doc: "time a client has to send a request's headers (at most `REQUEST_TIMEOUT_MS`); a slow client is answered 408 and disconnected",
  }),
  keepAliveTimeoutMs: int({
    name: 'KEEP_ALIVE_TIMEOUT_MS',
    default: 72_000,
    min: 100,
    max: 3_600_000,
    doc: 'how long an idle keep-alive connection stays open between requests',
  }),
  connectionTimeoutMs: int({
    name: 'CONNECTION_TIMEOUT_MS',
    default: 120_000,
    min: 0,
    max: 3_600_000,
    doc: 'a connection with no traffic either way for this long is closed (`0`: never)',
  }),
  maxBatchRequestItems: int({ name: 'MAX_BATCH_REQUEST_ITEMS', default: 50_000, min: 1, doc: 'items one batch request may hold' }),
  batchSize: int({ name: 'BATCH_SIZE', default: 5_000, min: 1, max: 100_000, doc: 'items per batch (a larger request is split into several batches)' }),
  batchChunkSize: int({ name: 'BATCH_CHUNK_SIZE', default: 2_500, min: 1, max: 100_000, doc: 'items a worker applies in one transaction' }),
  batchLeaseSeconds: int({ name: 'BATCH_LEASE_SECONDS', default: 30, min: 1, doc: "how long a worker's claim on a batch lasts without renewal" }),
  /** What the retention job keeps (src/modules/retention, docs/operations.md); days 0 keep a kind for ever. */
  retention: {
    intervalMinutes: int({
      name: 'RETENTION_INTERVAL_MINUTES',
      default: 60,
      min: 1,
      max: 7 * 24 * 60,
      doc: 'how often each worker process runs the retention job (and once at start) ([docs/operations.md](docs/operations.md#retention))',
    }),
    chunkSize: int({
      name: 'RETENTION_CHUNK_SIZE',
      default: 5_000,
      min: 1,
      max: 100_000,
      doc: 'rows one delete statement of the retention job removes at most (fewer for batches and images, whose rows weigh more)',
    }),
    batchDays: int({
      name: 'BATCH_RETENTION_DAYS',
      default: 30,
      doc: 'days finished batches (and their item results) are kept after they finish; `0` keeps them for ever',
    }),
    webhookDays: int({
      name: 'WEBHOOK_RETENTION_DAYS',
      default: 30,
      doc: 'days delivered and failed webhook deliveries (and their attempts) are kept after they finish, and events no delivery refers to; `0` for ever',
    }),
    // Kept at least two days: a key answers replays for 24 hours (src/http/idempotency.ts).
    idempotencyDays: int({
      name: 'IDEMPOTENCY_RETENTION_DAYS',
      default: 2,
      min: 2,
      doc: 'days `Idempotency-Key` records are kept (at least 2: a key answers replays for 24 hours)',
    }),
    signInCodeDays: int({ name: 'SIGN_IN_CODE_RETENTION_DAYS', default: 7, doc: 'days sign-in codes are kept after they expire (used or not); `0` for ever' }),
    sessionDays: int({ name: 'SESSION_RETENTION_DAYS', default: 7, doc: 'days console and store-user sessions are kept after they end (expired or signed out); `0` for ever' }),
    imageDays: int({
      name: 'IMAGE_RETENTION_DAYS',
      default: 7,
      doc: 'days an image no brand, category, product or promotion names any more is kept (row and files); `0` for ever',
    }),
    auditDays: int({ name: 'AUDIT_RETENTION_DAYS', default: 365, doc: 'days audit entries are kept; `0` for ever' }),
    messageDays: int({
      name: 'MESSAGE_RETENTION_DAYS',
      default: 30,
      doc: 'days messages that are done (sent, failed, dropped) and their attempts are kept; `0` for ever',
    }),
  },
  workerConcurrency: int({ name: 'WORKER_CONCURRENCY', default: 2, min: 1, max: 64, doc: 'batches one worker process applies at once' }),
  workerPollMs: int({ name: 'WORKER_POLL_MS', default: 500, min: 10, doc: 'how often an idle worker looks for work' }),
  shutdownTimeoutMs: int({ name: 'SHUTDOWN_TIMEOUT_MS', default: 20_000, min: 100, doc: 'drain deadline after SIGTERM' }),
  logLevel: oneOf({
    name: 'LOG_LEVEL',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: (ctx) => (ctx.nodeEnv === 'test' ? 'silent' : 'info'),
    shown: '`info` (`silent` when `NODE_ENV=test`)',
    doc: 'log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  }),
  logFormat: oneOf({
    name: 'LOG_FORMAT',
    values: ['json', 'pretty'],
    default: (ctx) => (ctx.stdoutIsTTY && !ctx.production ? 'pretty' : 'json'),
    shown: '`pretty` at a terminal in development, else `json`',
    doc: '`json` (one object a line) or `pretty` (readable lines, pino-pretty)',
  }),
  logSlowRequestMs: int({
    name: 'LOG_SLOW_REQUEST_MS',
    default: 1000,
    doc: 'a request slower than this gets one log line (method, route pattern, status, ms); `0`: none',
  }),
  /** Where a worker-only process serves /metrics; when set, API processes serve it there too instead of on PORT. */
  metricsPort: int({
    name: 'METRICS_PORT',
    min: 0,
    max: 65535,
    shown: 'unset: API processes serve it on `PORT`, a worker alone serves none',
    doc: "serve `GET /metrics` on this port (on `HOST`) instead of the API's; how a `worker` process is scraped",
  }),
  metricsToken: text({
    name: 'METRICS_TOKEN',
    minLength: 16,
    secret: true,
    shown: 'unset: open (production requires it or `METRICS_PORT`)',
    doc: '`/metrics` asks for `Authorization: Bearer <token>` (16+ characters)',
  }),
  otlpEndpoint: url({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    shown: 'unset: off, nothing of it loaded',
    doc: "OpenTelemetry collector's OTLP/HTTP base URL (`/v1/traces` is appended); set, tracing is on",
  }),
  otelServiceName: text({ name: 'OTEL_SERVICE_NAME', default: 'surtido', doc: '`service.name` of the exported spans' }),
  currencyDecimals: int({
    name: 'CURRENCY_DECIMALS',
    default: 2,
    max: 4,
    doc: "digits of the currency's smallest unit; amounts stores pay are rounded to it",
  }),
  currency: text({
    name: 'CURRENCY',
    default: 'COP',
    check: (v) => /^[A-Z]{3}$/.test(v) && isKnown(() => new Intl.NumberFormat('en', { style: 'currency', currency: v })),
    must: 'be an ISO 4217 code such as COP',
    doc: "the platform's currency (ISO 4217), for showing money in the store app",
  }),
  locale: text({
    name: 'LOCALE',
    default: 'es-CO',
    check: (v) => isKnown(() => Intl.getCanonicalLocales(v)),
    must: 'be a BCP 47 language tag such as es-CO',
    map: (v) => Intl.getCanonicalLocales(v)[0]!,
    doc: "the apps' default language and number format (BCP 47); the browser's language may choose Spanish, Portuguese (Brazil) or English instead",
  }),
  defaultCountryCode: text({
    name: 'DEFAULT_COUNTRY_CODE',
    default: '+57',
    check: (v) => /^\+[1-9][0-9]{0,3}$/.test(v),
    must: 'be a + and the 1 to 4 digits of a country calling code, such as +57',
    doc: 'the country code a local number typed at the store app\'s sign-in is completed with (`3001234567` → `+573001234567`, the page completes it, `GET /app/auth/settings` tells it this; the service takes E.164 only)',
  }),
  storeTokenTtlSeconds: int({
    name: 'STORE_TOKEN_TTL_SECONDS',
    default: 7 * 24 * 3600,
    min: 60,
    shownAs: (s) => `\`${s}\` (${s / 86_400} days)`,
    doc: 'store-user access token lifetime',
  }),
  storeCacheTtlMs: int({
    name: 'STORE_CACHE_TTL_MS',
    default: 60_000,
    max: 3_600_000,
    doc: "how long an API process keeps the store side's catalogue, promotions and store contexts in memory; every change is heard at once through `NOTIFY` (src/modules/store-app/README.md), so this only bounds a lost notification; `0` reads the database on every request",
  }),
  imageMaxBytes: int({ name: 'IMAGE_MAX_BYTES', default: 15 * MiB, min: 1, shownAs: mib, doc: 'largest image downloaded' }),
  imageTimeoutMs: int({ name: 'IMAGE_TIMEOUT_MS', default: 15_000, min: 100, doc: 'deadline of one image download (redirects included)' }),
  imageConcurrency: int({ name: 'IMAGE_CONCURRENCY', default: 2, min: 1, max: 64, doc: 'image downloads one worker process runs at once' }),
  webhookTimeoutMs: int({
    name: 'WEBHOOK_TIMEOUT_MS',
    default: 15_000,
    min: 10,
    max: 300_000,
    doc: 'deadline of one webhook attempt (connect, answer and body)',
  }),
  webhookConcurrency: int({ name: 'WEBHOOK_CONCURRENCY', default: 16, min: 1, max: 256, doc: 'webhook deliveries one worker process sends at once' }),
  webhookLeaseSeconds: int({
    name: 'WEBHOOK_LEASE_SECONDS',
    default: 60,
    min: 1,
    max: 3600,
    doc: "how long a worker's claim on a webhook delivery lasts (longer than `WEBHOOK_TIMEOUT_MS`)",
  }),
  webhookSupplierConcurrency: int({
    name: 'WEBHOOK_SUPPLIER_CONCURRENCY',
    default: 4,
    min: 1,
    max: 1024,
    doc: 'webhook deliveries one supplier may have in flight at once, across every worker (a hanging receiver holds at most this many slots)',
  }),
  /** Where stored images go: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/images. */
  s3: group(
    {
      bucket: text({ name: 'S3_BUCKET', doc: 'store images in this S3-compatible bucket (under `images/`) instead of `DATA_DIR/images`' }),
      endpoint: url({ name: 'S3_ENDPOINT', shown: 'unset: AWS', doc: "the bucket's endpoint" }),
      region: text({ name: 'S3_REGION', default: 'us-east-1', doc: "the bucket's region" }),
      forcePathStyle: bool({ name: 'S3_FORCE_PATH_STYLE', default: false, doc: "path-style addressing of the bucket (MinIO and most stand-ins)" }),
      accessKeyId: text({
        name: 'S3_ACCESS_KEY_ID',
        shown: "unset: the AWS SDK's default chain (environment, profile, instance role)",
        doc: "the bucket's access key id, set together with `S3_SECRET_ACCESS_KEY`",
      }),
      secretAccessKey: text({ name: 'S3_SECRET_ACCESS_KEY', secret: true, shown: 'unset', doc: "the bucket's secret access key, set together with `S3_ACCESS_KEY_ID`" }),
    },
    ({ bucket, ...rest }, given) => {
      if (!bucket) {
        if (given.length > 0) throw requiredWhen('S3_BUCKET is', given);
        return undefined;
      }
      if (Boolean(rest.accessKeyId) !== Boolean(rest.secretAccessKey)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
      return { bucket, ...rest };
    },
  ),
  /** Message channels (src/modules/messages): each off unless its settings are given. */
  messaging: {
    /** Email through SMTP (nodemailer). */
    smtp: group(
      {
        url: url({
          name: 'SMTP_URL',
          schemes: ['smtp', 'smtps'],
          secret: true,
          shown: 'unset (off)',
          doc: 'email channel (sign-in codes, opted-in events) through SMTP, set together with `MAIL_FROM`, e.g. `smtp://user:pass@host:587` ([src/modules/messages](src/modules/messages/README.md))',
        }),
        from: text({ name: 'MAIL_FROM', shown: 'unset (off)', doc: 'the sender of email, set together with `SMTP_URL`, e.g. `Surtido <no-reply@example.com>`' }),
        requireTls: bool({
          name: 'SMTP_REQUIRE_TLS',
          default: (ctx) => ctx.production,
          shown: '`true` in production, else `false`',
          doc: 'email is sent only over TLS: an `smtp://` server must offer STARTTLS (an `smtps://` one is TLS from the start), else the send fails; `false` lets it go in the clear',
        }),
      },
      ({ url, from, requireTls }, given) => {
        if (Boolean(url) !== Boolean(from)) throw new ConfigError('SMTP_URL and MAIL_FROM must be set together');
        if (!url || !from) {
          if (given.length > 0) throw requiredWhen('SMTP_URL and MAIL_FROM are', given);
          return undefined;
        }
        return { url, from, requireTls };
      },
    ),
    /** Twilio's Messages API for SMS and WhatsApp. */
    twilio: group(
      {
        accountSid: text({
          name: 'TWILIO_ACCOUNT_SID',
          shown: 'unset (off)',
          doc: "Twilio's Messages API for SMS and WhatsApp: the account, set together with `TWILIO_AUTH_TOKEN` and at least one sender below",
        }),
        authToken: text({ name: 'TWILIO_AUTH_TOKEN', secret: true, shown: 'unset (off)', doc: "the Twilio account's auth token" }),
        smsFrom: text({ name: 'TWILIO_SMS_FROM', doc: 'the SMS sender number' }),
        whatsappFrom: text({
          name: 'TWILIO_WHATSAPP_FROM',
          doc: 'the WhatsApp sender (phone codes go by WhatsApp when it and `TWILIO_WHATSAPP_CODE_TEMPLATE` are set, falling back to SMS when that send fails)',
        }),
        whatsappCodeTemplate: text({
          name: 'TWILIO_WHATSAPP_CODE_TEMPLATE',
          doc: 'Content SID of the approved WhatsApp template for codes (variables `1`: the code, `2`: minutes valid)',
        }),
        apiUrl: url({ name: 'TWILIO_API_URL', default: 'https://api.twilio.com', doc: "Twilio's API base URL (tests point it at a local stand-in)" }),
      },
      ({ accountSid, authToken, ...rest }, given) => {
        if (Boolean(accountSid) !== Boolean(authToken)) throw new ConfigError('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN must be set together');
        if (!accountSid || !authToken) {
          if (given.length > 0) throw requiredWhen('TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are', given);
          return undefined;
        }
        if (!rest.smsFrom && !rest.whatsappFrom) throw new ConfigError('TWILIO_SMS_FROM or TWILIO_WHATSAPP_FROM is required with TWILIO_ACCOUNT_SID');
        return { accountSid, authToken, ...rest };
      },
    ),
    messageRetryLimit: int({
      name: 'MESSAGE_RETRY_LIMIT',
      default: 8,
      min: 1,
      max: 100,
      doc: 'tries before a message is given up (with backoff, 2 s doubling to 10 min)',
    }),
    devMailbox: bool({
      name: 'DEV_MAILBOX',
      default: (ctx) => ctx.nodeEnv === 'development',
      offInProduction: true,
      shown: '`true` in development, else `false`',
      doc: '`GET /dev/mailbox` lists recent messages; never in production',
    }),
  },
};

export type Config = Values<typeof settings>;
export type MessagingSettings = Config['messaging'];
export type S3Settings = NonNullable<Config['s3']>;

/** Rules between settings, checked once each is read. */
const crossChecks: ReadonlyArray<(c: Config) => void> = [
  // A claim that ran out while its attempt is still in flight would let a second dispatcher
  // send the same delivery at the same time.
  (c) => {
    if (c.webhookLeaseSeconds * 1000 <= c.webhookTimeoutMs) {
      throw new ConfigError(`WEBHOOK_LEASE_SECONDS (${c.webhookLeaseSeconds}) must be longer than WEBHOOK_TIMEOUT_MS (${c.webhookTimeoutMs} ms)`);
    }
  },
  // The public port is scraped by anyone: production asks for a token there, or serves the
  // metrics on a port of their own.
  (c) => {
    if (c.env === 'production' && c.metricsToken === undefined && c.metricsPort === undefined) {
      throw new ConfigError('METRICS_TOKEN or METRICS_PORT is required when NODE_ENV=production: /metrics is never open on the public port');
    }
  },
  // Node refuses a header deadline later than the whole request's.
  (c) => {
    if (c.requestTimeoutMs > 0 && c.headersTimeoutMs > c.requestTimeoutMs) {
      throw new ConfigError(`HEADERS_TIMEOUT_MS (${c.headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${c.requestTimeoutMs})`);
    }
  },
];

/** `stdoutIsTTY` decides the default log format; tests pass it. */
export function loadConfig(env: Env = process.env, stdoutIsTTY: boolean = Boolean(process.stdout.isTTY)): Config {
  const config = readSettings(settings, env, stdoutIsTTY);
  for (const check of crossChecks) check(config);
  return config;
}

/**
 * The development conveniences this configuration turns on, as the start prints them. Each
 * is off in production (and refused there when asked for by name), so the list is empty.
 */
export function developmentConveniences(c: Config): string[] {
  const twilio = c.messaging.twilio;
  // Codes reach a phone by SMS, or by WhatsApp with its sender and the approved template.
  const sendsEverything = c.messaging.smtp !== undefined && Boolean(twilio?.smsFrom || (twilio?.whatsappFrom && twilio.whatsappCodeTemplate));
  return [
    c.adminTokenGenerated && 'generated admin token',
    c.demoSupplier && 'demo supplier',
    c.messaging.devMailbox && '/dev/mailbox',
    // Messages with no channel go to the log (src/modules/messages/messages.channels.ts).
    c.env !== 'production' && !sendsEverything && 'codes in the log',
    c.allowPrivateAddresses && 'private addresses',
  ].filter((name): name is string => typeof name === 'string');
}

/** README.md's settings table (`npm run docs:settings` writes it there). */
export function renderSettingsTable(): string {
  return renderTable(settings);
}
