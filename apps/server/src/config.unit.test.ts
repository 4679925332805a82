import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_AUDIENCE, ConfigError, loadConfig } from './config.ts';

const key = randomBytes(32).toString('base64');
const otherKey = randomBytes(32).toString('base64');
const api = 'api://datalab';
/** A production environment that starts; each test spoils one thing. */
const production = {
  NODE_ENV: 'production',
  SIGNING_KEY: key,
  ENCRYPTION_KEY: otherKey,
  OIDC_ISSUER: 'https://id.example.com',
  OIDC_AUDIENCE: api,
};
const problemsOf = (env: Record<string, string | undefined>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('configuration', () => {
  it('runs the embedded mode with no configuration at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: './data',
      publicUrl: 'http://localhost:8080',
      database: { kind: 'sqlite', file: './data/datalab.sqlite' },
      demo: true,
      oidc: {
        builtIn: true,
        issuer: 'http://localhost:8080/oidc',
        audience: BUILT_IN_AUDIENCE,
        clientId: 'datalab-portal',
      },
    });
    expect(config.oidc.scopes).toEqual(['profile', 'openid', 'email', 'LOS', 'locality', 'country']);
  });

  it('takes the port, the data folder and the store from the environment', () => {
    const config = loadConfig({ PORT: '9090', DATA_DIR: '/srv/datalab', DATABASE_URL: 'postgres://db/datalab' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://db/datalab',
      poolMax: 10,
      connectTimeoutMs: 5000,
    });
  });

  it('refuses production without its own signing and encryption keys, naming each', () => {
    const attempt = () =>
      loadConfig({ NODE_ENV: 'production', OIDC_ISSUER: 'https://id.example.com', OIDC_AUDIENCE: api });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'SIGNING_KEY is required in production (32 random bytes, base64)',
        'ENCRYPTION_KEY is required in production (32 random bytes, base64)',
      ]);
    }
  });

  it('refuses the demo accounts and the built-in sign-in in production', () => {
    expect(() => loadConfig({ ...production, DEMO: 'true' })).toThrow(/DEMO cannot be enabled in production/);
    expect(() => loadConfig({ ...production, OIDC_ISSUER: undefined })).toThrow(
      /OIDC_ISSUER is required in production/,
    );
  });

  it('starts production with its keys and an external provider, without the demo', () => {
    const config = loadConfig({ ...production, OIDC_ISSUER: 'https://id.example.com/realms/dl/' });
    expect(config.demo).toBe(false);
    expect(config.oidc).toMatchObject({
      builtIn: false,
      issuer: 'https://id.example.com/realms/dl',
      audience: api,
      requireAccessTokenType: false,
    });
    expect(config.host).toBe('0.0.0.0');
    expect(config.encryptionKey?.length).toBe(32);
  });

  it.each([
    ['all zeros', Buffer.alloc(32).toString('base64'), /SIGNING_KEY is one byte repeated/],
    ['one byte repeated', Buffer.alloc(32, 7).toString('base64'), /SIGNING_KEY is one byte repeated/],
    [
      'a short pattern',
      Buffer.from('0123456789'.repeat(4)).subarray(0, 32).toString('base64'),
      /SIGNING_KEY repeats a short pattern/,
    ],
    [
      'the bytes 0x00 to 0x1f in sequence',
      Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64'),
      /SIGNING_KEY is a sequence \(each byte a fixed step from the one before\), not random bytes/,
    ],
    [
      'bytes of a narrow range',
      Buffer.from(Array.from({ length: 32 }, (_, i) => 0x80 + ((i * i * 7 + i * 3) % 100))).toString('base64'),
      /SIGNING_KEY uses only a narrow range of byte values/,
    ],
    ['a placeholder', 'CHANGEME' + key.slice(8), /SIGNING_KEY contains a placeholder word/],
    [
      'a passphrase',
      Buffer.from('my very own signing key 32 bytes').toString('base64'),
      /SIGNING_KEY is text, not random bytes/,
    ],
  ])('refuses %s as a production key, saying what to set', (_name, weak, message) => {
    const problems = problemsOf({ ...production, SIGNING_KEY: weak });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(problems[0]).toMatch(/set it to 32 random bytes/);
    expect(problems[0]).toContain('generate one with: node -e');
  });

  it('accepts random keys in production', () => {
    for (let i = 0; i < 200; i += 1) {
      const random = randomBytes(32).toString('base64');
      expect(problemsOf({ ...production, SIGNING_KEY: random })).toEqual([]);
    }
  });

  it('refuses one key for both signing and encryption in production', () => {
    expect(problemsOf({ ...production, ENCRYPTION_KEY: key })).toEqual([
      'SIGNING_KEY and ENCRYPTION_KEY must differ: set each to its own 32 random bytes',
    ]);
  });

  it('refuses an http issuer in production, except on this machine', () => {
    expect(problemsOf({ ...production, OIDC_ISSUER: 'http://id.example.com' })).toEqual([
      'OIDC_ISSUER must be an https:// URL in production (tokens and keys must not travel in clear text)',
    ]);
    expect(problemsOf({ ...production, OIDC_ISSUER: 'http://localhost:9000/realms/dl' })).toEqual([]);
    expect(problemsOf({ ...production, OIDC_ISSUER: 'http://127.0.0.1:9000' })).toEqual([]);
  });

  it('requires the API audience with an external provider, and never the portal client id', () => {
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com' })[0]).toMatch(
      /^OIDC_AUDIENCE is required with OIDC_ISSUER/,
    );
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com', OIDC_AUDIENCE: 'datalab-portal' })[0]).toMatch(
      /^OIDC_AUDIENCE must not be the portal client id/,
    );
    expect(problemsOf({ OIDC_CLIENT_ID: 'spa', OIDC_AUDIENCE: 'spa' })[0]).toMatch(/must not be the portal client id/);
  });

  it('runs web and worker roles apart only with the shared queue and store (REDIS_URL and DATABASE_URL)', () => {
    const shared = { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://db/datalab' };
    for (const role of ['web', 'worker']) {
      expect(problemsOf({ DATALAB_ROLE: role })).toEqual([
        `DATALAB_ROLE=${role} needs REDIS_URL and DATABASE_URL (the shared job queue and store)`,
      ]);
      expect(problemsOf({ DATALAB_ROLE: role, REDIS_URL: shared.REDIS_URL })).toHaveLength(1);
      expect(loadConfig({ DATALAB_ROLE: role, ...shared }).role).toBe(role);
    }
    expect(loadConfig({}).role).toBe('all');
  });

  it('listens on this machine only in the embedded mode unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({}).oidc.requireAccessTokenType).toBe(true);
  });

  it.each([
    [undefined, false],
    ['true', true],
    ['2', 2],
    ['10.0.0.1, 10.0.1.0/24', ['10.0.0.1', '10.0.1.0/24']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{ SIGNING_KEY: 'c2hvcnQ=' }, /SIGNING_KEY must be 32 bytes, base64-encoded/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('says exactly what is wrong with %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads SQL_HOST_ALLOWLIST: public hosts when unset, entries that are hosts, addresses or blocks, and *', () => {
    const list = (value?: string) => {
      const parsed = loadConfig(value === undefined ? {} : { SQL_HOST_ALLOWLIST: value }).sqlHostAllowlist;
      return { anyPublic: parsed.anyPublic, entries: parsed.entries.map((e) => [e.kind, e.text]) };
    };
    expect(list()).toEqual({ anyPublic: true, entries: [] });
    expect(
      list(' DB.example.com , 10.0.0.5:5432,[::1]:3306,fd00::7, warehouse.:6432,10.0.0.0/8,[fd00::/8]:5432'),
    ).toEqual({
      anyPublic: false,
      entries: [
        ['name', 'DB.example.com'],
        ['addresses', '10.0.0.5:5432'],
        ['addresses', '[::1]:3306'],
        ['addresses', 'fd00::7'],
        ['name', 'warehouse.:6432'],
        ['addresses', '10.0.0.0/8'],
        ['addresses', '[fd00::/8]:5432'],
      ],
    });
    expect(list('*, db.internal')).toEqual({ anyPublic: true, entries: [['name', 'db.internal']] });
    expect(problemsOf({ SQL_HOST_ALLOWLIST: 'db:99999,user@db,db:port,postgres://db/x,10.0.0.0/33,ok' })).toEqual([
      "SQL_HOST_ALLOWLIST: 'db:99999' is not *, a host, host:port, an IP address or a CIDR block",
      "SQL_HOST_ALLOWLIST: 'user@db' is not *, a host, host:port, an IP address or a CIDR block",
      "SQL_HOST_ALLOWLIST: 'db:port' is not *, a host, host:port, an IP address or a CIDR block",
      "SQL_HOST_ALLOWLIST: 'postgres://db/x' is not *, a host, host:port, an IP address or a CIDR block",
      "SQL_HOST_ALLOWLIST: '10.0.0.0/33' is not *, a host, host:port, an IP address or a CIDR block",
    ]);
  });

  it('reads SQLITE_SHARED_PATHS as absolute folders', () => {
    expect(loadConfig({ SQLITE_SHARED_PATHS: '/srv/shared/, /data/x/../y' }).sqliteSharedPaths).toEqual([
      '/srv/shared',
      '/data/y',
    ]);
    expect(problemsOf({ SQLITE_SHARED_PATHS: 'relative/dir' })).toEqual([
      "SQLITE_SHARED_PATHS: 'relative/dir' is not an absolute folder path",
    ]);
  });
});
