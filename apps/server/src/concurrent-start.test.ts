import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from './db/migrations/index.ts';
import { freePort } from '../test/support/ports.ts';
import { createPostgresDatabase, isPostgresAvailable } from '../test/support/stores.ts';

// A deployment starts its processes together (compose up, a Kubernetes rollout): two server processes started at the
// same instant on one empty PostgreSQL store both come up, every migration is applied exactly once (PostgreSQL's
// migration lock lets one process migrate while the other waits, then finds nothing left to do), and what a start
// records once — the demo's seed, the reach settings — is recorded once (advisory locks, db/locks.ts).

const postgres = await isPostgresAvailable();
const SERVER = join(import.meta.dirname, 'server.ts');

async function waitReady(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`a server exited with ${child.exitCode}:\n${output()}`);
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`a server was not ready within 120 s:\n${output()}`);
}

(postgres ? describe : describe.skip)('two processes starting at once on one PostgreSQL store [postgres]', () => {
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-concurrent-'));
  let drop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('both become ready, the migrations run once and the demo is seeded once', { timeout: 180_000 }, async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const ports = [await freePort(), await freePort()];
    const outputs = ports.map(() => '');
    ports.forEach((port, index) => {
      const child = spawn(process.execPath, [SERVER, '--role=web'], {
        env: {
          PATH: process.env['PATH'] ?? '',
          NODE_ENV: 'development',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: join(dataDir, String(index)),
          DATABASE_URL: database.url,
          REDIS_URL: 'redis://127.0.0.1:6379',
          DOWNLOAD_QUEUE_PREFIX: `datalab-concurrent-${port}`,
          DEMO: 'true',
          WEB_DIST_DIR: join(dataDir, 'none'),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => (outputs[index] += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (outputs[index] += chunk.toString()));
      children.push(child);
    });
    await Promise.all(ports.map((port, index) => waitReady(port, children[index]!, () => outputs.join('\n---\n'))));

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; times: string }>(
        'select name, count(*) as times from kysely_migration group by name order by name',
      );
      expect(rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
      expect(rows.filter((row) => Number(row.times) !== 1)).toEqual([]);
      const collections = await client.query<{ name: string; times: string }>(
        'select name, count(*) as times from collections group by name order by name',
      );
      expect(collections.rows.map((row) => [row.name, Number(row.times)])).toEqual([
        ['Operations', 1],
        ['Sales', 1],
      ]);
    } finally {
      await client.end();
    }
    expect(outputs.join('\n')).not.toMatch(/Migration .* failed|could not start/);
  });
});
