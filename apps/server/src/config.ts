import { z } from 'zod';

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
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'REDIS_URL must be a redis:// URL').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: bool.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  APP_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
  SIGNING_KEY: base64Key('SIGNING_KEY').optional(),
  ENCRYPTION_KEY: base64Key('ENCRYPTION_KEY').optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).default('datalab-portal'),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  OIDC_SCOPES: z.string().default('profile openid email LOS locality country'),
  OIDC_USERNAME_CLAIM: z.string().default('preferred_username'),
  ADMIN_SUBJECTS: z.string().optional(),
  CALLING_LAYER_URL: z.string().url().optional(),
  WEB_DIST_DIR: z.string().optional(),
  DEMO: bool.optional(),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  host: string;
  port: number;
  /** The address people reach the portal at; derived from the port when not set. */
  publicUrl: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolMax: number };
  redisUrl: string | undefined;
  logLevel: string;
  logRequests: boolean;
  bodyLimitBytes: number;
  appLogRetentionDays: number;
  signingKey: Buffer | undefined;
  encryptionKey: Buffer | undefined;
  oidc: {
    /** True when the server runs its own provider (embedded mode). */
    builtIn: boolean;
    issuer: string;
    clientId: string;
    audience: string;
    scopes: string[];
    usernameClaim: string;
    adminSubjects: string[];
  };
  callingLayerUrl: string;
  webDistDir: string | undefined;
  /** Seed the demo (accounts, sample data) on first start. */
  demo: boolean;
  shutdownTimeoutMs: number;
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
  const problems: string[] = [];
  if (isProduction) {
    if (!e.SIGNING_KEY) problems.push('SIGNING_KEY is required in production (32 random bytes, base64)');
    if (!e.ENCRYPTION_KEY) problems.push('ENCRYPTION_KEY is required in production (32 random bytes, base64)');
    if (!e.OIDC_ISSUER) problems.push('OIDC_ISSUER is required in production: the built-in sign-in is for the embedded demo only');
    if (e.DEMO) problems.push('DEMO cannot be enabled in production: the demo accounts share a known password');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const builtIn = !e.OIDC_ISSUER;
  return {
    env: e.NODE_ENV,
    isProduction,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    dataDir: e.DATA_DIR,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX }
      : { kind: 'sqlite', file: `${e.DATA_DIR}/datalab.sqlite` },
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    appLogRetentionDays: e.APP_LOG_RETENTION_DAYS,
    signingKey: e.SIGNING_KEY ? Buffer.from(e.SIGNING_KEY, 'base64') : undefined,
    encryptionKey: e.ENCRYPTION_KEY ? Buffer.from(e.ENCRYPTION_KEY, 'base64') : undefined,
    oidc: {
      builtIn,
      issuer: (e.OIDC_ISSUER ?? `${publicUrl}/oidc`).replace(/\/$/, ''),
      clientId: e.OIDC_CLIENT_ID,
      audience: e.OIDC_AUDIENCE ?? (builtIn ? BUILT_IN_AUDIENCE : e.OIDC_CLIENT_ID),
      scopes: e.OIDC_SCOPES.split(/\s+/).filter(Boolean),
      usernameClaim: e.OIDC_USERNAME_CLAIM,
      adminSubjects: (e.ADMIN_SUBJECTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    },
    callingLayerUrl: (e.CALLING_LAYER_URL ?? publicUrl).replace(/\/$/, ''),
    webDistDir: e.WEB_DIST_DIR,
    demo: e.DEMO ?? (!isProduction && builtIn),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

function stripEmpty(env: Record<string, string | undefined>) {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
}
