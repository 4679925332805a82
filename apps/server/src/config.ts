import type { SqlHostList } from '@datalab/engine/connectors/sql-hosts';
import { z } from 'zod';
import {
  audienceProblems,
  parseSqlHostAllowlist,
  parseSqliteSharedPaths,
  parseTrustProxy,
  productionProblems,
} from './config-rules.ts';

// One schema for every environment variable (docs/configuration.md lists them). Defaults make the
// embedded mode work with zero configuration; production refuses to start without its own keys.

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const base64Key = (name: string) =>
  z.string().refine((value) => Buffer.from(value, 'base64').length === 32, {
    message: `${name} must be 32 bytes, base64-encoded`,
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: bool.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  APP_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  APP_LOG_RETENTION_MAX_ROWS: z.coerce.number().int().min(0).default(1_000_000),
  SIGNING_KEY: base64Key('SIGNING_KEY').optional(),
  ENCRYPTION_KEY: base64Key('ENCRYPTION_KEY').optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).default('datalab-portal'),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_REQUIRE_AT_JWT_TYP: bool.optional(),
  OIDC_SCOPES: z.string().default('profile openid email LOS locality country'),
  OIDC_USERNAME_CLAIM: z.string().default('preferred_username'),
  ADMIN_SUBJECTS: z.string().optional(),
  COLLECTION_CREATOR_GROUPS: z.string().optional(),
  DIGITAL_LAB_GROUPS: z.string().optional(),
  CALLING_LAYER_URL: z.string().url().optional(),
  CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(67_108_864),
  MAX_EXPORT_ROWS: z.coerce.number().int().min(1).default(5_000_000),
  USAGE_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  USAGE_ROLLUP_FLUSH_MS: z.coerce.number().int().min(10).max(300_000).default(30_000),
  USAGE_RECORDING: z.enum(['on', 'off']).default('on'),
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  TOKEN_DEFAULT_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  TOKEN_MAX_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  TOKEN_ALLOW_NO_EXPIRY: bool.default(false),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  WEB_DIST_DIR: z.string().optional(),
  DEMO: bool.optional(),
  DEMO_SHOP_ORDERS: z.coerce.number().int().min(100).max(10_000_000).default(100_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SQL_HOST_ALLOWLIST: z.string().optional(),
  SQLITE_SHARED_PATHS: z.string().optional(),
  DATALAB_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  DOWNLOAD_DIR: z.string().optional(),
  DOWNLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  DOWNLOAD_RETENTION_HOURS: z.coerce.number().min(0.001).max(8760).default(24),
  DOWNLOAD_MAX_BYTES: z.coerce.number().int().min(0).default(10_737_418_240),
  DOWNLOAD_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'DOWNLOAD_QUEUE_PREFIX: letters, digits, - and _ only')
    .default('datalab'),
  MCP_ENABLED: bool.optional(),
  MCP_MAX_ROWS: z.coerce.number().int().min(1).max(10_000).default(200),
  MCP_DYNAMIC_CLIENT_REGISTRATION: bool.default(true),
  MCP_FAST_PATH: bool.default(true),
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  port: number;
  /** Whom to believe about X-Forwarded-*: Fastify's trustProxy (off, on, hop count or addresses). */
  trustProxy: boolean | number | string[];
  /** The address people reach the portal at; derived from the port when not set. */
  publicUrl: string;
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string }
    | {
        kind: 'postgres';
        url: string;
        poolMax: number;
        /** How long a new connection may take before the call fails (503) instead of waiting; default 5000. */
        connectTimeoutMs?: number;
      };
  redisUrl: string | undefined;
  logLevel: string;
  logRequests: boolean;
  bodyLimitBytes: number;
  appLogRetentionDays: number;
  /** The most application-log records kept (the newest); 0: no limit by count. */
  appLogRetentionMaxRows: number;
  signingKey: Buffer | undefined;
  encryptionKey: Buffer | undefined;
  oidc: {
    /** True when the server runs its own provider (embedded mode). */
    builtIn: boolean;
    issuer: string;
    clientId: string;
    audience: string;
    /** Access tokens must carry the RFC 9068 type header 'at+jwt'. */
    requireAccessTokenType: boolean;
    scopes: string[];
    usernameClaim: string;
    adminSubjects: string[];
  };
  /** Members of these groups (by name, directly or through nesting) may create collections. */
  collectionCreatorGroups: string[];
  /** Members of these groups (by name, directly or through nesting) are Digital Lab partners. */
  digitalLabGroups: string[];
  callingLayerUrl: string;
  /** The result cache's bound in bytes (0 turns the cache off). */
  cacheMaxBytes: number;
  /** The most rows a CSV/NDJSON/XLSX call streams, whatever a data source allows. */
  maxExportRows: number;
  /** How often buffered usage records are written. */
  usageFlushMs: number;
  /** How often the usage rollups' increments, summed in memory, are written (the summaries lag by at most this). */
  usageRollupFlushMs: number;
  /** Whether calls leave usage records ('off': benchmarks of the recording's cost only). */
  usageRecording: boolean;
  /** The bearer secret /metrics requires; undefined: open outside production, not served in production. */
  metricsToken: string | undefined;
  /** Data Lab tokens: the expiry given when none is asked for, the longest allowed, and whether "never" is. */
  tokens: { defaultDays: number; maxDays: number; allowNoExpiry: boolean };
  /** Calls per minute per token or user through the calling layer, unless a data source sets its own. */
  rateLimitPerMinute: number;
  webDistDir: string | undefined;
  /** Seed the demo (accounts, sample data) on first start. */
  demo: boolean;
  /** The MCP endpoint (/mcp): data assets as tools for AI agents. */
  mcp: {
    enabled: boolean;
    /** Rows a tool result carries at most (a model's context is small); the rest is for a download. */
    maxRows: number;
    /** The built-in provider registers MCP clients that ask (RFC 7591). */
    dynamicClientRegistration: boolean;
    /** tools/call and tools/list answered without the SDK's per-message work (same answers); false: all via the SDK. */
    fastPath: boolean;
  };
  /** Orders in the demo's sample shop database (tests use a small one). */
  demoShopOrders: number;
  shutdownTimeoutMs: number;
  /**
   * Where PostgreSQL and MariaDB connections may point (SQL_HOST_ALLOWLIST): public hosts when `anyPublic` (unset,
   * or `*`), and the entries' hosts, addresses and blocks even when internal.
   */
  sqlHostAllowlist: SqlHostList;
  /** Folders (absolute) whose SQLite files every collection may open, read-only (SQLITE_SHARED_PATHS). */
  sqliteSharedPaths: string[];
  /** What this process does: serve HTTP and run download jobs (all), serve only (web), run jobs only (worker). */
  role: 'all' | 'web' | 'worker';
  downloads: {
    /** Where files are written; a volume every worker and web instance shares when they run apart. */
    dir: string;
    /** Jobs one process runs at once. */
    concurrency: number;
    retentionHours: number;
    /** The largest file a job may write (0: no limit). */
    maxBytes: number;
    /** BullMQ's key prefix in Redis (several deployments, or test runs, on one Redis). */
    queuePrefix: string;
  };
  /**
   * Load shedding (plugins/overload.ts): new calls answer 503 while the event loop's mean delay (ms) or its
   * utilization (0..1) over the last second is above these; 0 turns a check off.
   */
  overload: { maxEventLoopDelayMs: number; maxEventLoopUtilization: number };
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

export const BUILT_IN_AUDIENCE = 'urn:datalab:api';

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(stripEmpty(env));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const allowlist = parseSqlHostAllowlist(e.SQL_HOST_ALLOWLIST);
  const sharedPaths = parseSqliteSharedPaths(e.SQLITE_SHARED_PATHS);
  const problems = [
    ...(isProduction ? productionProblems(e) : []),
    ...audienceProblems(e),
    ...allowlist.problems,
    ...sharedPaths.problems,
  ];
  if (e.TOKEN_DEFAULT_DAYS > e.TOKEN_MAX_DAYS) problems.push('TOKEN_DEFAULT_DAYS must not exceed TOKEN_MAX_DAYS');
  // Web and worker processes apart share jobs through the queue and the store: Redis and PostgreSQL (product §12).
  if (e.DATALAB_ROLE !== 'all' && (!e.REDIS_URL || !e.DATABASE_URL)) {
    problems.push(`DATALAB_ROLE=${e.DATALAB_ROLE} needs REDIS_URL and DATABASE_URL (the shared job queue and store)`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const builtIn = !e.OIDC_ISSUER;
  return {
    env: e.NODE_ENV,
    isProduction,
    // The embedded demo (with its published password) is reachable from this machine only, unless HOST says otherwise.
    host: e.HOST ?? (builtIn ? '127.0.0.1' : '0.0.0.0'),
    port: e.PORT,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicUrl,
    dataDir: e.DATA_DIR,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
        }
      : { kind: 'sqlite', file: `${e.DATA_DIR}/datalab.sqlite` },
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    appLogRetentionDays: e.APP_LOG_RETENTION_DAYS,
    appLogRetentionMaxRows: e.APP_LOG_RETENTION_MAX_ROWS,
    signingKey: e.SIGNING_KEY ? Buffer.from(e.SIGNING_KEY, 'base64') : undefined,
    encryptionKey: e.ENCRYPTION_KEY ? Buffer.from(e.ENCRYPTION_KEY, 'base64') : undefined,
    oidc: {
      builtIn,
      issuer: (e.OIDC_ISSUER ?? `${publicUrl}/oidc`).replace(/\/$/, ''),
      clientId: e.OIDC_CLIENT_ID,
      audience: e.OIDC_AUDIENCE ?? BUILT_IN_AUDIENCE,
      requireAccessTokenType: e.OIDC_REQUIRE_AT_JWT_TYP ?? builtIn,
      scopes: e.OIDC_SCOPES.split(/\s+/).filter(Boolean),
      usernameClaim: e.OIDC_USERNAME_CLAIM,
      adminSubjects: (e.ADMIN_SUBJECTS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    // The demo's analysts may create collections; elsewhere only administrators, unless groups are named.
    collectionCreatorGroups: (e.COLLECTION_CREATOR_GROUPS ?? ((e.DEMO ?? (!isProduction && builtIn)) ? 'Analysts' : ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    // The demo's partners use the Digital Lab; elsewhere nobody is sent there, unless groups are named.
    digitalLabGroups: (e.DIGITAL_LAB_GROUPS ?? ((e.DEMO ?? (!isProduction && builtIn)) ? 'Partners' : ''))
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    callingLayerUrl: (e.CALLING_LAYER_URL ?? publicUrl).replace(/\/$/, ''),
    cacheMaxBytes: e.CACHE_MAX_BYTES,
    maxExportRows: e.MAX_EXPORT_ROWS,
    usageFlushMs: e.USAGE_FLUSH_MS,
    usageRollupFlushMs: e.USAGE_ROLLUP_FLUSH_MS,
    usageRecording: e.USAGE_RECORDING === 'on',
    metricsToken: e.METRICS_TOKEN,
    tokens: { defaultDays: e.TOKEN_DEFAULT_DAYS, maxDays: e.TOKEN_MAX_DAYS, allowNoExpiry: e.TOKEN_ALLOW_NO_EXPIRY },
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    webDistDir: e.WEB_DIST_DIR,
    demo: e.DEMO ?? (!isProduction && builtIn),
    demoShopOrders: e.DEMO_SHOP_ORDERS,
    // On in the embedded demo; elsewhere an administrator turns it on.
    mcp: {
      enabled: e.MCP_ENABLED ?? e.DEMO ?? (!isProduction && builtIn),
      maxRows: e.MCP_MAX_ROWS,
      dynamicClientRegistration: e.MCP_DYNAMIC_CLIENT_REGISTRATION,
      fastPath: e.MCP_FAST_PATH,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sqlHostAllowlist: allowlist.list,
    sqliteSharedPaths: sharedPaths.paths,
    role: e.DATALAB_ROLE,
    downloads: {
      dir: e.DOWNLOAD_DIR ?? `${e.DATA_DIR}/downloads`,
      concurrency: e.DOWNLOAD_CONCURRENCY,
      retentionHours: e.DOWNLOAD_RETENTION_HOURS,
      maxBytes: e.DOWNLOAD_MAX_BYTES,
      queuePrefix: e.DOWNLOAD_QUEUE_PREFIX,
    },
    overload: {
      maxEventLoopDelayMs: e.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: e.OVERLOAD_MAX_EVENT_LOOP_UTILIZATION,
    },
  };
}

function stripEmpty(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
