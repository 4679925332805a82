import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { skipWithout } from './tools.ts';

// compose.yaml as `docker-compose config` reads it (Debian's docker-compose): valid, the scale-out shape (PostgreSQL,
// Redis, two web processes and a worker of one image behind one proxy), production settings required from .env.

const ROOT = resolve(import.meta.dirname, '..');
const COMPOSE = join(ROOT, 'compose.yaml');
const REQUIRED = [
  'PUBLIC_URL',
  'SITE_ADDRESS',
  'SIGNING_KEY',
  'ENCRYPTION_KEY',
  'OIDC_ISSUER',
  'OIDC_AUDIENCE',
  'POSTGRES_PASSWORD',
];
const SETTINGS: Record<string, string> = {
  PUBLIC_URL: 'https://datalab.example.com',
  SITE_ADDRESS: 'datalab.example.com',
  SIGNING_KEY: 'c2lnbmluZy1rZXktZm9yLXRoZS1jb21wb3NlLXRlc3Q=',
  ENCRYPTION_KEY: 'ZW5jcnlwdGlvbi1rZXktZm9yLXRoZS1jb21wb3NlLXQ=',
  OIDC_ISSUER: 'https://login.example.com/realms/datalab',
  OIDC_AUDIENCE: 'urn:datalab:api',
  POSTGRES_PASSWORD: 'compose-test-password',
};

const dir = mkdtempSync(join(tmpdir(), 'datalab-compose-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `docker-compose config` with exactly these settings (a clean environment: the caller's variables do not leak in). */
function config(settings: Record<string, string>) {
  const envFile = join(dir, `env-${Object.keys(settings).length}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(
    envFile,
    Object.entries(settings)
      .map(([key, value]) => `${key}=${value}\n`)
      .join(''),
  );
  const result = spawnSync('docker-compose', ['--env-file', envFile, '-f', COMPOSE, 'config'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' },
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  ports?: unknown[];
  volumes?: string[];
  read_only?: boolean;
  depends_on?: Record<string, { condition: string }>;
}

const skip = skipWithout('docker-compose', ['version'], 'apt-get install docker-compose');

describe.skipIf(skip)('compose.yaml', () => {
  it('is valid and starts PostgreSQL, Redis, two web processes and a worker of one image behind one proxy', () => {
    const result = config(SETTINGS);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const { services, volumes } = parse(result.stdout) as {
      services: Record<string, Service>;
      volumes: Record<string, unknown>;
    };
    expect(Object.keys(services).sort()).toEqual(['postgres', 'proxy', 'redis', 'web1', 'web2', 'worker']);
    const datalab = [services['web1']!, services['web2']!, services['worker']!];
    expect(new Set(datalab.map((service) => service.image))).toEqual(new Set(['datalab:latest']));
    expect(datalab.map((service) => service.command)).toEqual([['web'], ['web'], ['worker']]);
    for (const service of datalab) {
      expect(service.read_only).toBe(true);
      expect(service.ports).toBeUndefined();
      expect(service.volumes).toEqual(['datalab-data:/data:rw']);
      expect(service.environment).toMatchObject({
        NODE_ENV: 'production',
        PUBLIC_URL: SETTINGS['PUBLIC_URL'],
        SIGNING_KEY: SETTINGS['SIGNING_KEY'],
        ENCRYPTION_KEY: SETTINGS['ENCRYPTION_KEY'],
        OIDC_ISSUER: SETTINGS['OIDC_ISSUER'],
        OIDC_AUDIENCE: SETTINGS['OIDC_AUDIENCE'],
        DATABASE_URL: `postgres://datalab:${SETTINGS['POSTGRES_PASSWORD']}@postgres:5432/datalab`,
        REDIS_URL: 'redis://redis:6379',
        DATA_DIR: '/data',
        TRUST_PROXY: '1',
      });
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    for (const name of ['postgres', 'redis', 'web1', 'web2']) expect(services[name]!.healthcheck?.test).toBeDefined();
    expect(services['web1']!.healthcheck?.test).toEqual(['CMD', 'node', '/app/deploy/container/healthcheck.mjs']);
    // One entry point: only the proxy publishes ports, and it waits for both web processes to be healthy.
    expect(
      Object.entries(services)
        .filter(([, service]) => service.ports)
        .map(([name]) => name),
    ).toEqual(['proxy']);
    expect(services['proxy']!.depends_on).toEqual({
      web1: { condition: 'service_healthy' },
      web2: { condition: 'service_healthy' },
    });
    expect(Object.keys(volumes).sort()).toEqual(['caddy-data', 'datalab-data', 'postgres-data', 'redis-data']);
  });

  it.each(REQUIRED)('refuses to start without %s, naming it', (name) => {
    const { [name]: _left, ...rest } = SETTINGS;
    const result = config(rest);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`set ${name} in .env`);
  });

  it('has every setting it reads listed in .env.example, and .env kept out of git', () => {
    const read = new Set([...readFileSync(COMPOSE, 'utf8').matchAll(/\$\{([A-Z_]+)[:}]/g)].map((match) => match[1]));
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^#? ?([A-Z_]+)=/gm)].map((match) => match[1]));
    const images = ['POSTGRES_IMAGE', 'REDIS_IMAGE', 'CADDY_IMAGE'];
    expect([...read].filter((name) => !listed.has(name) && !images.includes(name!))).toEqual([]);
    for (const name of REQUIRED) expect(example).toMatch(new RegExp(`^${name}=$`, 'm'));
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('.env');
  });
});

describe.skipIf(skipWithout('caddy', ['version'], 'apt-get install caddy'))(
  'the proxy (deploy/compose/Caddyfile)',
  () => {
    it('is a valid Caddy configuration', () => {
      const result = spawnSync(
        'caddy',
        ['validate', '--config', join(ROOT, 'deploy/compose/Caddyfile'), '--adapter', 'caddyfile'],
        {
          encoding: 'utf8',
          env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, SITE_ADDRESS: 'datalab.example.com' },
        },
      );
      expect(result.status, result.stderr).toBe(0);
    });
  },
);
