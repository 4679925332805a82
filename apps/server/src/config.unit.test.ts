import { describe, expect, it } from 'vitest';
import { BUILT_IN_AUDIENCE, ConfigError, loadConfig } from './config.ts';

const key = Buffer.alloc(32, 7).toString('base64');

describe('configuration', () => {
  it('runs the embedded mode with no configuration at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: './data',
      publicUrl: 'http://localhost:8080',
      database: { kind: 'sqlite', file: './data/datalab.sqlite' },
      demo: true,
      oidc: { builtIn: true, issuer: 'http://localhost:8080/oidc', audience: BUILT_IN_AUDIENCE, clientId: 'datalab-portal' },
    });
    expect(config.oidc.scopes).toEqual(['profile', 'openid', 'email', 'LOS', 'locality', 'country']);
  });

  it('takes the port, the data folder and the store from the environment', () => {
    const config = loadConfig({ PORT: '9090', DATA_DIR: '/srv/datalab', DATABASE_URL: 'postgres://db/datalab' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://db/datalab', poolMax: 10 });
  });

  it('refuses production without its own signing and encryption keys, naming each', () => {
    const attempt = () => loadConfig({ NODE_ENV: 'production', OIDC_ISSUER: 'https://id.example.com' });
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
    expect(() => loadConfig({ NODE_ENV: 'production', SIGNING_KEY: key, ENCRYPTION_KEY: key, DEMO: 'true', OIDC_ISSUER: 'https://id.example.com' })).toThrow(
      /DEMO cannot be enabled in production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', SIGNING_KEY: key, ENCRYPTION_KEY: key })).toThrow(/OIDC_ISSUER is required in production/);
  });

  it('starts production with its keys and an external provider, without the demo', () => {
    const config = loadConfig({ NODE_ENV: 'production', SIGNING_KEY: key, ENCRYPTION_KEY: key, OIDC_ISSUER: 'https://id.example.com/realms/dl/' });
    expect(config.demo).toBe(false);
    expect(config.oidc).toMatchObject({ builtIn: false, issuer: 'https://id.example.com/realms/dl', audience: 'datalab-portal' });
    expect(config.encryptionKey?.length).toBe(32);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres:\/\/ URL/],
    [{ SIGNING_KEY: 'c2hvcnQ=' }, /SIGNING_KEY must be 32 bytes, base64-encoded/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('says exactly what is wrong with %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
