import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { launch, stop, waitFor200 } from './processes.ts';
import type { PgTarget } from './calling-setup.ts';

// Directus 12.4.0 as the peers ran it (bench/peers/directus-env.sh): installed and bootstrapped outside the
// repository (default /tmp/peers/directus, see bench/README.md), loopback only, LOG_LEVEL=warn, every phone-home
// URL pointed at a dead port, started through @directus/api's CLI entry (the `directus` bin checks npm first).

export const DIRECTUS_PORT = 58055;

export interface DirectusPeer {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  token: string;
}

const readEnvFile = (file: string): Record<string, string> =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => /^(\w+)=(.*)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1]!, match[2]!]),
  );

/** Why Directus cannot be run from `dir`, or undefined when it can. */
export function directusMissing(dir: string): string | undefined {
  for (const file of ['node_modules/@directus/api/dist/cli/run.js', '.bench-secrets', 'static.token']) {
    if (!existsSync(join(dir, file)))
      return `${join(dir, file)} is missing (install and bootstrap it: bench/README.md)`;
  }
  return undefined;
}

/**
 * Directus runs on the machine's Node 20, as the peers ran it: its prebuilt isolated-vm binary does not load on the
 * Node 24 the repository pins (ERR_DLOPEN_FAILED).
 */
export const DIRECTUS_NODE = '/usr/bin/node';

export async function startDirectus(dir: string, target: PgTarget, node = DIRECTUS_NODE): Promise<DirectusPeer> {
  const baseUrl = `http://127.0.0.1:${DIRECTUS_PORT}`;
  const dead = 'http://127.0.0.1:9/';
  const env = {
    ...process.env,
    ...readEnvFile(join(dir, '.bench-secrets')),
    DB_CLIENT: 'pg',
    DB_HOST: target.host,
    DB_PORT: String(target.port),
    DB_DATABASE: target.database,
    DB_USER: target.user,
    DB_PASSWORD: 'postgres',
    ADMIN_EMAIL: 'admin@example.com',
    HOST: '127.0.0.1',
    PORT: String(DIRECTUS_PORT),
    PUBLIC_URL: baseUrl,
    TELEMETRY: 'false',
    TELEMETRY_URL: dead,
    COMPLIANCE_URL: dead,
    MARKETPLACE_REGISTRY: dead,
    PROJECT_OWNER_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  const child = launch(node, [join(dir, 'node_modules/@directus/api/dist/cli/run.js'), 'start'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  try {
    await waitFor200(`${baseUrl}/server/ping`, child, 60_000, 200);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { child, pid: child.pid!, baseUrl, token: readFileSync(join(dir, 'static.token'), 'utf8').trim() };
}
