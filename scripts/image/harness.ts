import { type ChildProcess, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fetchClient } from '../../apps/server/test/support/http.ts';
import { signIn } from '../../apps/server/test/support/sign-in.ts';

// What the image checks share (scripts/test-image.ts): running commands, recording checks, finding the server
// process a `buildah run` started, waiting for readiness, calling the API.

export const ROOT = resolve(import.meta.dirname, '../..');
export const IMAGE = process.env['TEST_IMAGE_NAME'] ?? 'localhost/datalab:test';
export const results: { check: string; ok: boolean; detail?: string }[] = [];

export function log(line: string) {
  process.stdout.write(`${line}\n`);
}

export function check(name: string, ok: boolean, detail?: string) {
  results.push({ check: name, ok, ...(detail ? { detail } : {}) });
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

export function run(command: string, args: string[], options: { input?: string } = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  return result;
}

export function must(command: string, args: string[]): string {
  const result = run(command, args);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`);
  return result.stdout.trim();
}

export function requireTools() {
  const missing = ['buildah', 'mmdebstrap'].filter((tool) => run('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} missing: apt-get install ${missing.join(' ')} (as root)`);
  }
  if (process.getuid?.() !== 0) throw new Error('run as root: mmdebstrap and buildah build and run containers here');
}

/** The server process a `buildah run` started: found by its command line and its PORT, as the host sees it. */
export function serverPid(port: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!cmdline.includes('/app/apps/server/dist/server.js')) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.includes(`PORT=${port}`)) return Number(entry);
    } catch {
      // A process that ended meanwhile.
    }
  }
  return undefined;
}

export const statusLine = (pid: number, field: string) =>
  readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${field}:`))
    ?.split(/\s+/)
    .slice(1);

/** The image's size unpacked, in MB, as buildah reports it ("334 MB"). */
export function imageSizeMb(image: string): number {
  const [listed] = JSON.parse(must('buildah', ['images', '--json', image])) as { size: string }[];
  const match = /^([\d.]+)\s*(kB|MB|GB)$/.exec(listed?.size ?? '');
  if (!match) return NaN;
  return Number(match[1]) * { kB: 1e-3, MB: 1, GB: 1e3 }[match[2] as 'kB' | 'MB' | 'GB'];
}

export async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`the container exited with ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${url}/health/ready`);
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error(`not ready within ${timeoutMs / 1000} s`);
}

export async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** A personal access token of the admin with Reader on the collection of the demo asset `name`, and that asset. */
export async function readerToken(url: string, name: string): Promise<{ secret: string; uid: string }> {
  const { access_token: oidc } = await signIn(fetchClient(), {
    publicUrl: url,
    username: 'admin',
    password: 'datalab',
  });
  const assets = JSON.parse((await call(url, oidc, 'GET', '/api/DataSource/GetAll?pageSize=100&kind=sql')).text) as {
    items: { uid: string; name: string }[];
  };
  const asset = assets.items.find((item) => item.name === name);
  if (!asset) throw new Error(`no demo asset "${name}"`);
  const collection = JSON.parse(
    (await call(url, oidc, 'GET', `/api/DataSourceCollection/GetByDataAssetId/${asset.uid}`)).text,
  ) as { uid: string };
  const created = await call(url, oidc, 'POST', '/api/Token', {
    kind: 'personal',
    name: `test:image ${name}`,
    roles: [{ collectionUid: collection.uid, role: 'Reader' }],
  });
  if (created.status !== 201) throw new Error(`POST /api/Token answered ${created.status}: ${created.text}`);
  return { secret: (JSON.parse(created.text) as { secret: string }).secret, uid: asset.uid };
}

/** The node process under a `buildah run` child (buildah-chroot-runtime, then the exec'd entrypoint). */
export function serverPidOf(child: ChildProcess): number | undefined {
  const descendants = (pid: number): number[] => {
    // Any thread may have started a child (buildah is a Go program): read every thread's list.
    const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
    );
    return children.flatMap((entry) => [Number(entry), ...descendants(Number(entry))]);
  };
  try {
    return descendants(child.pid!).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('/app/apps/server/dist/server.js'),
    );
  } catch {
    return undefined;
  }
}

/**
 * `buildah run`'s arguments for `command` in `container`: chroot isolation, and where asked the host's network, bind
 * mounts (`host:container`) and environment entries (`NAME=value`).
 */
export function runIn(
  container: string,
  command: string[],
  options: { network?: boolean; volumes?: string[]; env?: string[] } = {},
): string[] {
  return [
    'run',
    '--isolation',
    'chroot',
    ...(options.network ? ['--network', 'host'] : []),
    ...(options.volumes ?? []).flatMap((volume) => ['-v', volume]),
    ...(options.env ?? []).flatMap((entry) => ['--env', entry]),
    container,
    '--',
    ...command,
  ];
}
