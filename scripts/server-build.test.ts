import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/src/testing/ports.ts';
import NODE_FLAGS from './node-flags.json' with { type: 'json' };
import { SERVER_BUNDLE, SERVER_DIST, buildServer, serverBuildIsStale } from './server-build.ts';

// The bundle `npm start` runs: built from the sources, plain JavaScript, and a server that starts from it and finds
// its own files (the sign-in pages' assets, the portal) from the bundle's place.

describe('the server bundle', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-bundle-'));
  let server: ReturnType<typeof spawn> | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    await buildServer();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [SERVER_BUNDLE], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const ready = await fetch(`${baseUrl}/health/ready`).then(
        (reply) => reply.ok,
        () => false,
      );
      if (ready) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the bundled server did not become ready in 30 s');
  }, 60_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is up to date after a build and imports no TypeScript', () => {
    expect(serverBuildIsStale()).toBe(false);
    for (const file of readdirSync(SERVER_DIST)) {
      const code = readFileSync(join(SERVER_DIST, file), 'utf8');
      expect(code, file).not.toMatch(/(from|import\()\s*["'][^"']+\.ts["']/);
      expect(code, file).not.toMatch(/from\s*["']@datalab\//);
    }
  });

  it('is what npm start runs, with the web flags given to its process', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node ${NODE_FLAGS.web.join(' ')} scripts/start.mjs`);
    expect(readFileSync('scripts/start.mjs', 'utf8')).toContain("'apps/server/dist/server.js'");
  });

  it('serves the sign-in assets and the API from the bundle', async () => {
    const css = await fetch(`${baseUrl}/oidc-assets/pages.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toBe(readFileSync('apps/server/src/oidc/assets/pages.css', 'utf8'));
    const me = await fetch(`${baseUrl}/api/Account/GetCurrentUser`);
    expect(me.status).toBe(401);
  });
});
