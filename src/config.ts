import { isAbsolute, resolve } from 'node:path';

export type DatabaseConfig =
  | { dialect: 'sqlite'; file: string }
  | { dialect: 'postgres'; url: string; poolSize: number };

/** The risk-profiling partner: the built-in one, or an external one over HTTP. */
export type RiskPartnerConfig = { kind: 'builtin' } | { kind: 'http'; url: string; apiKey: string; timeoutMs: number };

export interface AppConfig {
  port: number;
  host: string;
  platformPrefix: string;
  rebalancerPrefix: string;
  apps: 'all' | 'platform' | 'rebalancer';
  dataDir: string;
  database: DatabaseConfig;
  logLevel: string;
  logFormat: 'pretty' | 'json';
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  /** A refresh token presented again this soon after its use returns the same successor pair (concurrent refreshes). */
  refreshGraceSeconds: number;
  signInMaxFailures: number;
  signInLockSeconds: number;
  seedDemoOnEmpty: boolean;
  shutdownGraceMs: number;
  /** On PostgreSQL, whether `wealth serve` also works rebalance chunks (workers always do). */
  workerInServer: boolean;
  /** Minute of the UTC day after which the server values the day's accounts (VALUATION_TIME, HH:MM); null: off. */
  valuationMinute?: number | null;
  /** Bytes of answers the response cache may hold (RESPONSE_CACHE_MB; 0 turns it off). */
  responseCacheBytes: number;
  workerConcurrency: number;
  rebalanceChunkSize: number;
  chunkTimeoutSeconds: number;
  /** A running batch with no chunk done for this long is failed, so that its accounts can be rebalanced again. */
  batchStallSeconds: number;
  /** The longest `GenerateTrades?wait=true` holds a request before answering with the batch still running. */
  rebalanceWaitSeconds: number;
  /** PostgreSQL schema of pg-boss's tables: every server and worker of one install must agree. */
  jobSchema: string;
  riskPartner: RiskPartnerConfig;
  /** The scheme and host partners reach the service at (no path); links in notifications start with it. */
  publicUrl: string;
  /**
   * Whether push endpoints may be on loopback, private, link-local and other non-public addresses.
   * Off by default: a partner names the URL, and the server must not call into its own network on
   * a partner's say-so. On for a firm whose receivers live in its own network, and for tests.
   */
  pushAllowPrivateNetworks: boolean;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`configuration: ${variable} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function prefix(env: Env, name: string, fallback: string): string {
  const raw = env[name] ?? fallback;
  if (!/^\/[A-Za-z0-9_\-/]*$/.test(raw)) throw new ConfigError(name, `must be a path starting with "/", got "${raw}"`);
  // A trailing slash would make every route "//x"; normalise it away once here.
  return raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function identifier(env: Env, name: string, fallback: string): string {
  const raw = env[name] ?? fallback;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) throw new ConfigError(name, `must be a lower-case SQL identifier, got "${raw}"`);
  return raw;
}

function httpUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  if (url.search || url.hash) throw new ConfigError(name, 'must not carry a query or fragment');
  return url;
}

function origin(env: Env, name: string, fallback: string): string {
  const url = httpUrl(name, env[name] || fallback);
  if (url.pathname !== '/') throw new ConfigError(name, `must be an http(s) scheme and host without a path, got "${env[name]}"`);
  return url.origin;
}

function riskPartner(env: Env): RiskPartnerConfig {
  const kind = env.RISK_PARTNER || 'builtin';
  if (kind === 'builtin') return { kind };
  if (kind !== 'http') throw new ConfigError('RISK_PARTNER', `must be builtin or http, got "${kind}"`);
  const raw = env.RISK_PARTNER_URL;
  if (!raw) throw new ConfigError('RISK_PARTNER_URL', 'is required when RISK_PARTNER=http');
  const url = httpUrl('RISK_PARTNER_URL', raw);
  const apiKey = env.RISK_PARTNER_API_KEY;
  if (!apiKey) throw new ConfigError('RISK_PARTNER_API_KEY', 'is required when RISK_PARTNER=http');
  return { kind, url: url.href.replace(/\/+$/, ''), apiKey, timeoutMs: integer(env, 'RISK_PARTNER_TIMEOUT_MS', 5000, 50, 120_000) };
}

/** VALUATION_TIME: HH:MM UTC (default 22:00, after the US close) or off. */
function valuationMinute(env: Env): number | null {
  const raw = env.VALUATION_TIME?.trim() || '22:00';
  if (raw.toLowerCase() === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(raw);
  if (!m) throw new ConfigError('VALUATION_TIME', `must be HH:MM (UTC) or off, got "${raw}"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const url = env.DATABASE_URL;
  let database: DatabaseConfig;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new ConfigError('DATABASE_URL', 'must start with postgres://');
    database = { dialect: 'postgres', url, poolSize: integer(env, 'DATABASE_POOL_SIZE', 10, 1, 200) };
  } else {
    const file = env.SQLITE_FILE ?? 'wealth.sqlite';
    database = { dialect: 'sqlite', file: isAbsolute(file) ? file : resolve(dataDir, file) };
  }
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  // Pretty lines for a person at a terminal, JSON lines for log collectors (and whenever asked).
  const logFormat = env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError('LOG_FORMAT', 'must be pretty or json');
  const apps = env.WEALTH_APPS ?? 'all';
  if (apps !== 'all' && apps !== 'platform' && apps !== 'rebalancer') {
    throw new ConfigError('WEALTH_APPS', 'must be all, platform or rebalancer');
  }
  const port = integer(env, 'PORT', 8080, 0, 65535);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    platformPrefix: prefix(env, 'PLATFORM_PREFIX', '/api'),
    rebalancerPrefix: prefix(env, 'REBALANCER_PREFIX', '/rebalancer'),
    apps,
    dataDir,
    database,
    logLevel,
    logFormat,
    accessTokenTtlSeconds: integer(env, 'ACCESS_TOKEN_TTL_SECONDS', 36000, 60, 31_536_000),
    refreshTokenTtlSeconds: integer(env, 'REFRESH_TOKEN_TTL_SECONDS', 375 * 86400, 60, 10 * 365 * 86400),
    authorizationCodeTtlSeconds: integer(env, 'AUTHORIZATION_CODE_TTL_SECONDS', 60, 5, 600),
    refreshGraceSeconds: integer(env, 'REFRESH_GRACE_SECONDS', 5, 0, 60),
    signInMaxFailures: integer(env, 'SIGN_IN_MAX_FAILURES', 5, 1, 1000),
    signInLockSeconds: integer(env, 'SIGN_IN_LOCK_SECONDS', 900, 1, 86400),
    seedDemoOnEmpty: boolean(env, 'SEED_DEMO_ON_EMPTY', true),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    workerInServer: boolean(env, 'WORKER_IN_SERVER', true),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 2, 1, 64),
    rebalanceChunkSize: integer(env, 'REBALANCE_CHUNK_SIZE', 2500, 1, 100_000),
    chunkTimeoutSeconds: integer(env, 'CHUNK_TIMEOUT_SECONDS', 120, 2, 3600),
    batchStallSeconds: integer(env, 'BATCH_STALL_SECONDS', 900, 5, 86400),
    rebalanceWaitSeconds: integer(env, 'REBALANCE_WAIT_SECONDS', 120, 1, 3600),
    jobSchema: identifier(env, 'JOB_SCHEMA', 'pgboss'),
    riskPartner: riskPartner(env),
    publicUrl: origin(env, 'PUBLIC_URL', `http://localhost:${port}`),
    pushAllowPrivateNetworks: boolean(env, 'PUSH_ALLOW_PRIVATE_NETWORKS', false),
    valuationMinute: valuationMinute(env),
    responseCacheBytes: integer(env, 'RESPONSE_CACHE_MB', 64, 0, 16_384) * 1024 * 1024,
    ...overrides,
  };
}
