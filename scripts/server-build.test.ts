import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../apps/server/test/support/ports.ts';
import NODE_FLAGS from './node-flags.json' with { type: 'json' };
import { SERVER_BUNDLE, SERVER_DIST, ensureServerBuild, serverBuildIsStale } from './server-build.ts';

// The bundle `npm start` runs: built from the sources, plain JavaScript, and a server that starts from it and finds
// its own files (the sign-in pages' assets, the portal) from the bundle's place.

describe('the server bundle', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-bundle-'));
  let server: ReturnType<typeof spawn> | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    // Built when stale (npm test builds it before its tiers start, and the end-to-end server may be running from it).
    await ensureServerBuild();
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

  it('imports each package at a version every bundled workspace that uses it declares', () => {
    // Node finds a bare import from the bundle's own place up: not where the engine's sources would find it. A
    // package two workspaces need in different versions must be the right one there too.
    const declared = new Map<string, { workspace: string; range: string }[]>();
    for (const workspace of ['apps/server', 'packages/engine', 'packages/contract']) {
      const manifest = JSON.parse(readFileSync(join(workspace, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
        if (!name.startsWith('@datalab/')) declared.set(name, [...(declared.get(name) ?? []), { workspace, range }]);
    }
    const imported = new Set<string>();
    for (const file of readdirSync(SERVER_DIST).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(SERVER_DIST, file), 'utf8');
      const bare = /(?:^|[\s;}])(?:from|import\()\s*["']((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w./-]*)?)["']/g;
      for (const [, specifier] of code.matchAll(bare)) {
        if (specifier!.startsWith('node:')) continue;
        const parts = specifier!.split('/');
        imported.add(specifier!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(imported).toContain('undici');
    for (const name of imported) {
      const ranges = declared.get(name);
      expect(ranges, `${name} is imported by the bundle but no shipped workspace declares it`).toBeDefined();
      const version = bundleResolvedVersion(name);
      for (const { workspace, range } of ranges!)
        expect(
          semver.satisfies(version, range),
          `${name}@${version} from the bundle, ${workspace} wants ${range}`,
        ).toBe(true);
    }
  });

  it('serves the sign-in assets and the API from the bundle', async () => {
    const css = await fetch(`${baseUrl}/oidc-assets/pages.css`);
    expect(css.status).toBe(200);
    expect(await css.text()).toBe(readFileSync('apps/server/src/oidc/assets/pages.css', 'utf8'));
    const me = await fetch(`${baseUrl}/api/Account/GetCurrentUser`);
    expect(me.status).toBe(401);
  });
});

/** The version of `name` that a bare import from the bundle loads: the first node_modules up from its directory. */
function bundleResolvedVersion(name: string): string {
  for (let dir = SERVER_DIST; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`${name} cannot be found from the bundle`);
  }
}
