// The only reader of process.env. Every setting is parsed once, at start, into a
// frozen typed object; a malformed value stops the start with a message naming it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string | undefined;
  /** PostgreSQL: run statements as named prepared statements (off behind PgBouncer's transaction mode before 1.21). */
  readonly databasePreparedStatements: boolean;
  readonly dataDir: string;
  readonly adminToken: string;
  /** True when ADMIN_TOKEN was not set and one was generated for this run. */
  readonly adminTokenGenerated: boolean;
  readonly allowPrivateAddresses: boolean;
  readonly publicUrl: string;
  readonly timezone: string;
  /** Digits of the currency's smallest unit: amounts a store pays are rounded to it. */
  readonly currencyDecimals: number;
  readonly rateLimitRps: number;
  readonly rateLimitBurst: number;
  readonly loginRateLimitPerMinute: number;
  readonly tokenTtlSeconds: number;
  readonly storeTokenTtlSeconds: number;
  readonly jwtSecret: string | undefined;
  readonly bodyLimitBytes: number;
  readonly maxBatchRequestItems: number;
  readonly batchSize: number;
  readonly batchChunkSize: number;
  readonly batchLeaseSeconds: number;
  readonly batchRetentionDays: number;
  readonly workerConcurrency: number;
  readonly workerPollMs: number;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: string;
  readonly demoSupplier: boolean;
  readonly imageMaxBytes: number;
  readonly imageTimeoutMs: number;
  readonly imageConcurrency: number;
  /** Where stored images go: an S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/images. */
  readonly s3: S3Settings | undefined;
  /** How long one webhook attempt may take (connect, answer and body). */
  readonly webhookTimeoutMs: number;
  /** Webhook deliveries one worker process sends at once. */
  readonly webhookConcurrency: number;
  /** Webhook deliveries one supplier may have in flight at once, across every worker process. */
  readonly webhookSupplierConcurrency: number;
  /** How long a dispatcher's claim on a delivery lasts; longer than the timeout. */
  readonly webhookLeaseSeconds: number;
}

export interface S3Settings {
  readonly bucket: string;
  /** Unset: AWS's own endpoint for the region. */
  readonly endpoint: string | undefined;
  readonly region: string;
  /** Unset: the AWS SDK's default credential chain (environment, profile, instance role). */
  readonly accessKeyId: string | undefined;
  readonly secretAccessKey: string | undefined;
  readonly forcePathStyle: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false; // Intl throws RangeError for an unknown zone: that is the answer.
  }
}

function s3Settings(env: Env): S3Settings | undefined {
  const bucket = env.S3_BUCKET || undefined;
  const named = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'].filter((n) => env[n]);
  if (!bucket) {
    if (named.length > 0) throw new ConfigError(`S3_BUCKET is required when ${named.join(', ')} ${named.length > 1 ? 'are' : 'is'} set`);
    return undefined;
  }
  const endpoint = env.S3_ENDPOINT || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint)) throw new ConfigError(`S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  return Object.freeze({
    bucket,
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  });
}

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }

  let adminToken = env.ADMIN_TOKEN ?? '';
  let adminTokenGenerated = false;
  if (!adminToken) {
    if (production) throw new ConfigError('ADMIN_TOKEN is required when NODE_ENV=production');
    adminToken = `adm_${randomBytes(24).toString('base64url')}`;
    adminTokenGenerated = true;
  } else if (adminToken.length < 16) {
    throw new ConfigError('ADMIN_TOKEN must be at least 16 characters long');
  }

  const publicUrl = (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${env.PUBLIC_URL}"`);
  }

  const timezone = env.TIMEZONE || 'UTC';
  if (!isValidTimezone(timezone)) throw new ConfigError(`TIMEZONE is not a known IANA time zone: "${timezone}"`);

  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret && jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');

  const logLevel = env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "${logLevel}"`);
  }

  const webhookTimeoutMs = int(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 10, 300_000);
  const webhookLeaseSeconds = int(env, 'WEBHOOK_LEASE_SECONDS', 60, 1, 3600);
  // A claim that ran out while its attempt is still in flight would let a second dispatcher
  // send the same delivery at the same time.
  if (webhookLeaseSeconds * 1000 <= webhookTimeoutMs) {
    throw new ConfigError(`WEBHOOK_LEASE_SECONDS (${webhookLeaseSeconds}) must be longer than WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs} ms)`);
  }

  const config: Config = {
    env: nodeEnv,
    port,
    host,
    databaseUrl,
    databasePreparedStatements: bool(env, 'DATABASE_PREPARED_STATEMENTS', true),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    adminToken,
    adminTokenGenerated,
    allowPrivateAddresses: bool(env, 'ALLOW_PRIVATE_ADDRESSES', !production),
    publicUrl,
    timezone,
    currencyDecimals: int(env, 'CURRENCY_DECIMALS', 2, 0, 4),
    rateLimitRps: int(env, 'RATE_LIMIT_RPS', 100, 1),
    rateLimitBurst: int(env, 'RATE_LIMIT_BURST', 200, 1),
    loginRateLimitPerMinute: int(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 10, 1),
    tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 3600, 1),
    storeTokenTtlSeconds: int(env, 'STORE_TOKEN_TTL_SECONDS', 7 * 24 * 3600, 60),
    jwtSecret,
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 32 * 1024 * 1024, 1024),
    maxBatchRequestItems: int(env, 'MAX_BATCH_REQUEST_ITEMS', 50_000, 1),
    batchSize: int(env, 'BATCH_SIZE', 5_000, 1, 100_000),
    batchChunkSize: int(env, 'BATCH_CHUNK_SIZE', 2_500, 1, 100_000),
    batchLeaseSeconds: int(env, 'BATCH_LEASE_SECONDS', 30, 1),
    batchRetentionDays: int(env, 'BATCH_RETENTION_DAYS', 30, 1),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 2, 1, 64),
    workerPollMs: int(env, 'WORKER_POLL_MS', 500, 10),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 100),
    logLevel,
    demoSupplier: !production && bool(env, 'DEMO_SUPPLIER', true),
    imageMaxBytes: int(env, 'IMAGE_MAX_BYTES', 15 * 1024 * 1024, 1),
    imageTimeoutMs: int(env, 'IMAGE_TIMEOUT_MS', 15_000, 100),
    imageConcurrency: int(env, 'IMAGE_CONCURRENCY', 2, 1, 64),
    s3: s3Settings(env),
    webhookTimeoutMs,
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 16, 1, 256),
    webhookSupplierConcurrency: int(env, 'WEBHOOK_SUPPLIER_CONCURRENCY', 4, 1, 1024),
    webhookLeaseSeconds,
  };
  return Object.freeze(config);
}
