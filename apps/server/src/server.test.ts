import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/support/ports.ts';

// The real process: a failed start says exactly what is wrong and exits non-zero; a good one
// becomes ready and shuts down cleanly on SIGTERM.

const SERVER = join(import.meta.dirname, 'server.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function freshDir() {
  const dir = mkdtempSync(join(tmpdir(), 'datalab-start-'));
  dirs.push(dir);
  return dir;
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', DATA_DIR: freshDir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('starting the server', () => {
  it('refuses a port that is taken', async () => {
    const blocker: Server = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '0.0.0.0', resolve));
    try {
      const run = start({ PORT: String(port) });
      expect(await run.exited).toBe(1);
      expect(run.output()).toContain(`port ${port} is already in use`);
    } finally {
      blocker.close();
    }
  });

  it('refuses an unreachable store', async () => {
    const run = start({ PORT: String(await freePort()), DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/The metadata store \(postgres\) cannot be reached/);
  });

  it('refuses bad configuration, naming the variable', async () => {
    const run = start({ PORT: 'eighty' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/Invalid configuration:[\s\S]*PORT/);
  });

  it('refuses production without its own keys', async () => {
    const run = start({ NODE_ENV: 'production', PORT: String(await freePort()) });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('SIGNING_KEY is required in production');
    expect(run.output()).toContain('ENCRYPTION_KEY is required in production');
  });

  it(
    'becomes ready, prints its address and demo accounts, and stops cleanly on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const run = start({ PORT: String(port) });
      let exited = false;
      void run.exited.then(() => (exited = true));
      try {
        // Until it answers ready or ends: a busy machine may take many seconds to start it (the timeout bounds it).
        let ready = false;
        while (!ready && !exited) {
          ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
            (r) => r.ok,
            () => false,
          );
          if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(ready, run.output()).toBe(true);
        expect(run.output()).toContain(`Data Lab is running at http://localhost:${port}`);
        expect(run.output()).toMatch(/Demo accounts \(password "datalab"\): admin/);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
      } finally {
        if (!exited) run.child.kill('SIGKILL');
      }
    },
  );
});
