import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fetchClient } from '../apps/server/test/support/http.ts';
import { freePort } from '../apps/server/test/support/ports.ts';
import { signIn } from '../apps/server/test/support/sign-in.ts';
import { createPostgresDatabase, isPostgresAvailable } from '../apps/server/test/support/stores.ts';

// `npm run test:image`: builds the image as a platform team would and runs it as one would, on this machine (no
// image registry, no container daemon): a stand-in Node base (deploy/local-base.sh), `buildah bud --isolation
// chroot`, then `buildah run --isolation chroot --network host` in the embedded mode. Checks readiness, the portal
// and the sign-in page, a data call with a Data Lab token, the non-root user, what the image holds (no dev packages,
// no sources), the role argument, and a clean stop on SIGTERM; then compose.yaml's shape (two web containers and a
// worker on the machine's PostgreSQL and Redis); reports the build's time and the image's size.
// Needs root, buildah and mmdebstrap (apt-get install buildah mmdebstrap). Layers are cached: a second run is fast.

const ROOT = resolve(import.meta.dirname, '..');
const IMAGE = process.env['TEST_IMAGE_NAME'] ?? 'localhost/datalab:test';
const results: { check: string; ok: boolean; detail?: string }[] = [];

function log(line: string) {
  process.stdout.write(`${line}\n`);
}

function check(name: string, ok: boolean, detail?: string) {
  results.push({ check: name, ok, ...(detail ? { detail } : {}) });
  log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

function run(command: string, args: string[], options: { input?: string } = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  return result;
}

function must(command: string, args: string[]): string {
  const result = run(command, args);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}${result.stdout}`);
  return result.stdout.trim();
}

function requireTools() {
  const missing = ['buildah', 'mmdebstrap'].filter((tool) => run('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} missing: apt-get install ${missing.join(' ')} (as root)`);
  }
  if (process.getuid?.() !== 0) throw new Error('run as root: mmdebstrap and buildah build and run containers here');
}

/** The server process a `buildah run` started: found by its command line and its PORT, as the host sees it. */
function serverPid(port: number): number | undefined {
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

const statusLine = (pid: number, field: string) =>
  readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${field}:`))
    ?.split(/\s+/)
    .slice(1);

/** The image's size unpacked, in MB, as buildah reports it ("334 MB"). */
function imageSizeMb(image: string): number {
  const [listed] = JSON.parse(must('buildah', ['images', '--json', image])) as { size: string }[];
  const match = /^([\d.]+)\s*(kB|MB|GB)$/.exec(listed?.size ?? '');
  if (!match) return NaN;
  return Number(match[1]) * { kB: 1e-3, MB: 1, GB: 1e3 }[match[2] as 'kB' | 'MB' | 'GB'];
}

async function waitReady(url: string, child: ChildProcess, timeoutMs: number): Promise<number> {
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

async function call(url: string, token: string, method: string, path: string, body?: unknown) {
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
async function readerToken(url: string, name: string): Promise<{ secret: string; uid: string }> {
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

/**
 * compose.yaml's shape from this image: two web containers and a worker container started at the same instant, on
 * one fresh PostgreSQL database and the machine's Redis, sharing one data folder. Both web processes become ready
 * (the migrations ran once between them), and a download started on one is run by the worker and fetched from the
 * other.
 */
async function scaleOut(image: string) {
  const database = await createPostgresDatabase();
  const data = mkdtempSync(join(tmpdir(), 'datalab-image-data-'));
  chownSync(data, 10001, 10001);
  chmodSync(data, 0o700);
  const containers: string[] = [];
  const processes: ChildProcess[] = [];
  let output = '';
  try {
    const ports = [await freePort(), await freePort()];
    const env = [
      `DATABASE_URL=${database.url}`,
      'REDIS_URL=redis://127.0.0.1:6379',
      `DOWNLOAD_QUEUE_PREFIX=datalab-image-${ports[0]}`,
      'DEMO_SHOP_ORDERS=2000',
      'LOG_LEVEL=warn',
    ];
    // The first web process seeds the demo (its accounts and the asset below); seeding is not meant for several
    // processes at once (the demo is the embedded mode's), so the others start with DEMO=false.
    const roles: [string, number | undefined, boolean][] = [
      ['web', ports[0], true],
      ['web', ports[1], false],
      ['worker', undefined, false],
    ];
    for (const [role, port, demo] of roles) {
      const container = must('buildah', ['from', '--pull-never', image]);
      containers.push(container);
      const child = spawn(
        'buildah',
        [
          'run',
          '--isolation',
          'chroot',
          '--network',
          'host',
          // buildah run lays its own volume over the image's VOLUME /data, hiding a bind mount there: the shared
          // folder goes elsewhere and DATA_DIR names it.
          '-v',
          `${data}:/shared`,
          '--env',
          'DATA_DIR=/shared',
          ...env.flatMap((entry) => ['--env', entry]),
          ...(port ? ['--env', `PORT=${port}`, '--env', `PUBLIC_URL=http://localhost:${port}`] : []),
          '--env',
          `DEMO=${demo}`,
          container,
          '--',
          '/app/deploy/container/entrypoint.sh',
          role,
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      processes.push(child);
    }
    const [a, b] = ports.map((port) => `http://localhost:${port}`) as [string, string];
    await Promise.all([waitReady(a, processes[0]!, 180_000), waitReady(b, processes[1]!, 180_000)]);
    check('two web containers and a worker started at once on one store all come up', processes[2]!.exitCode === null);

    const workerPid = serverPidOf(processes[2]!);
    const workerCommand = workerPid ? readFileSync(`/proc/${workerPid}/cmdline`, 'utf8').split('\0').join(' ') : '';
    check(
      'the worker runs with the worker flags',
      workerCommand.includes('--max-old-space-size=192'),
      workerCommand.trim(),
    );
    const { secret, uid } = await readerToken(a, 'Customer activity');
    const onB = await call(b, secret, 'GET', `/data/v1/${uid}`);
    check('a token made on one web process calls data on the other', onB.status === 200, `${onB.status}`);
    const started = await call(b, secret, 'POST', '/api/Download', { dataAssetUid: uid, format: 'csv' });
    const job = JSON.parse(started.text) as { id: string };
    let state = '';
    for (let attempt = 0; attempt < 120 && !['Completed', 'Failed'].includes(state); attempt += 1) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
      state = (JSON.parse((await call(a, secret, 'GET', `/api/Download/${job.id}/Status`)).text) as { state: string })
        .state;
    }
    const file = await call(a, secret, 'GET', `/api/Download/${encodeURIComponent(job.id)}/File`);
    check(
      'a download started on one web process is run by the worker and fetched from the other',
      started.status < 300 && state === 'Completed' && file.status === 200 && file.text.startsWith('customer,'),
      `start ${started.status}, ${state || 'no state'}, file ${file.status}`,
    );
  } catch (error) {
    log(`--- scale-out output ---\n${output.slice(-4000)}`);
    throw error;
  } finally {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolveExit) => {
            if (child.exitCode !== null) return resolveExit();
            child.once('exit', () => resolveExit());
            const pid = serverPidOf(child);
            if (pid) process.kill(pid, 'SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
          }),
      ),
    );
    if (results.some((result) => !result.ok)) log(`--- scale-out output ---\n${output.slice(-4000)}`);
    for (const container of containers) run('buildah', ['rm', container]);
    await database.drop();
    rmSync(data, { recursive: true, force: true });
  }
}

/** The node process under a `buildah run` child (buildah-chroot-runtime, then the exec'd entrypoint). */
function serverPidOf(child: ChildProcess): number | undefined {
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

async function main() {
  requireTools();
  const startedAt = performance.now();

  log('== stand-in base (deploy/local-base.sh)');
  const baseStarted = performance.now();
  const base = must('sh', ['deploy/local-base.sh']).split('\n').at(-1)!;
  const baseSeconds = (performance.now() - baseStarted) / 1000;
  log(`base ${base} in ${baseSeconds.toFixed(1)} s`);

  log('== buildah bud --isolation chroot');
  const revision = run('git', ['rev-parse', '--short', 'HEAD']).stdout.trim() || 'unknown';
  const caBundle = process.env['NODE_EXTRA_CA_CERTS'];
  // Behind a TLS-inspecting proxy (as here), the build's npm needs the proxy's CA: mounted for the build only.
  const caArgs =
    caBundle && existsSync(caBundle)
      ? ['-v', `${caBundle}:/run/build-ca.crt:ro`, '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/build-ca.crt']
      : [];
  const buildStarted = performance.now();
  const build = spawnSync(
    'buildah',
    [
      'bud',
      '--isolation',
      'chroot',
      '--layers',
      '--format',
      'docker',
      ...caArgs,
      '--build-arg',
      `NODE_IMAGE=${base}`,
      '--build-arg',
      `REVISION=${revision}`,
      '--build-arg',
      `CREATED=${new Date().toISOString()}`,
      '-t',
      IMAGE,
      '-f',
      'Containerfile',
      '.',
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (build.status !== 0) throw new Error('buildah bud failed (above)');
  const buildSeconds = (performance.now() - buildStarted) / 1000;

  const inspect = JSON.parse(must('buildah', ['inspect', '--type', 'image', IMAGE])) as {
    Docker: { config: { User: string; Healthcheck?: { Test: string[] }; Labels: Record<string, string> } };
  };
  const config = inspect.Docker.config;
  const sizeMb = imageSizeMb(IMAGE);
  const baseSizeMb = imageSizeMb(base);
  check('the image runs as a numeric non-root user', /^[1-9]\d*:\d+$/.test(config.User), config.User);
  check(
    'the image has a HEALTHCHECK',
    Boolean(config.Healthcheck?.Test.includes('/app/deploy/container/healthcheck.mjs')),
  );
  check(
    'the image carries the OCI labels',
    ['title', 'version', 'revision', 'created'].every((label) => config.Labels[`org.opencontainers.image.${label}`]),
  );

  log('== buildah run --isolation chroot --network host');
  const container = must('buildah', ['from', '--pull-never', IMAGE]);
  let server: ChildProcess | undefined;
  try {
    const shipped = run('buildah', [
      'run',
      '--isolation',
      'chroot',
      container,
      '--',
      'node',
      '-e',
      "const fs=require('fs');console.log(JSON.stringify(['node_modules/vitest','node_modules/typescript'," +
        "'node_modules/react','packages','e2e','apps/server/src/app.ts','apps/web/src','apps/web/dist/index.html'," +
        "'apps/server/dist/server.js'].filter((p)=>fs.existsSync('/app/'+p))))",
    ]);
    check(
      'it holds the server bundle and the built portal, no dev packages, no sources',
      shipped.stdout.trim() === JSON.stringify(['apps/web/dist/index.html', 'apps/server/dist/server.js']),
      shipped.stdout.trim() || shipped.stderr.trim(),
    );

    // What a read-only root filesystem would refuse, the image's user is refused already: it writes only /data.
    const writable = run('buildah', [
      'run',
      '--isolation',
      'chroot',
      container,
      '--',
      'node',
      '-e',
      "const fs=require('fs');console.log(JSON.stringify(['/app','/app/apps/server/dist','/','/usr/local','/data']" +
        ".filter((d)=>{try{fs.writeFileSync(d+'/.w','');fs.rmSync(d+'/.w');return true}catch{return false}})))",
    ]);
    check(
      "the image's user can write /data and nothing of the image",
      writable.stdout.trim() === '["/data"]',
      writable.stdout.trim(),
    );

    const worker = run('buildah', [
      'run',
      '--isolation',
      'chroot',
      container,
      '--',
      '/app/deploy/container/entrypoint.sh',
      'worker',
    ]);
    check(
      'the role is an argument (a worker without its queue and store says what it needs)',
      worker.status === 1 && worker.stderr.includes('DATALAB_ROLE=worker needs REDIS_URL and DATABASE_URL'),
      worker.stderr
        .trim()
        .split('\n')
        .find((line) => line.includes('DATALAB_ROLE')),
    );

    const port = await freePort();
    const url = `http://localhost:${port}`;
    let output = '';
    server = spawn(
      'buildah',
      [
        'run',
        '--isolation',
        'chroot',
        '--network',
        'host',
        '--env',
        `PORT=${port}`,
        '--env',
        'DEMO_SHOP_ORDERS=2000',
        container,
        '--',
        '/app/deploy/container/entrypoint.sh',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => server!.on('exit', (code) => resolveExit(code)));

    const readyMs = await waitReady(url, server, 180_000);
    check('it becomes ready (GET /health/ready 200)', true, `${(readyMs / 1000).toFixed(1)} s after start`);
    const health = run('buildah', [
      'run',
      '--isolation',
      'chroot',
      '--network',
      'host',
      '--env',
      `PORT=${port}`,
      container,
      '--',
      'node',
      '/app/deploy/container/healthcheck.mjs',
    ]);
    check('the HEALTHCHECK command passes', health.status === 0, health.stderr.trim() || undefined);

    const pid = serverPid(port);
    const uid = pid ? statusLine(pid, 'Uid')?.[0] : undefined;
    check('the server runs as a non-root user', uid !== undefined && uid !== '0', `uid ${uid}`);
    // The entrypoint execs node: no shell stands between the runtime and the server to swallow SIGTERM.
    const parent = pid ? statusLine(pid, 'PPid')?.[0] : undefined;
    const parentCommand = parent ? readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0')[0] : '';
    check(
      "node is exec'd by the entrypoint (no shell in between)",
      !/(^|\/)(ba|da)?sh$/.test(parentCommand ?? ''),
      parentCommand,
    );
    const cmdline = pid ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ') : '';
    check('node runs with the web flags', cmdline.includes('--max-semi-space-size=8'), cmdline.trim());

    const portal = await fetch(`${url}/`);
    check('the portal answers', portal.status === 200 && (await portal.text()).includes('<div id="root">'));

    // The sign-in page, as a browser reaches it: the authorization request redirects to the interaction page.
    const http = fetchClient();
    const authorize = new URL(`${url}/oidc/auth`);
    authorize.search = new URLSearchParams({
      client_id: 'datalab-portal',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${url}/auth/token`,
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const started = await http({ method: 'GET', url: authorize.href });
    const cookies = [started.headers['set-cookie'] ?? []].flat().map((cookie) => cookie.split(';')[0]);
    const interaction = await http({
      method: 'GET',
      url: new URL(String(started.headers['location']), url).href,
      headers: { cookie: cookies.join('; ') },
    });
    check(
      'the sign-in page answers with its form',
      interaction.status === 200 && /<form method="post"/.test(interaction.body),
      `${started.status} then ${interaction.status}`,
    );

    const { access_token: oidc } = await signIn(http, { publicUrl: url, username: 'admin', password: 'datalab' });
    const assets = JSON.parse((await call(url, oidc, 'GET', '/api/DataSource/GetAll?pageSize=100&kind=sql')).text) as {
      items: { uid: string; name: string }[];
    };
    const regions = assets.items.find((asset) => asset.name === 'Regions');
    if (!regions) throw new Error('no demo asset "Regions"');
    const collection = JSON.parse(
      (await call(url, oidc, 'GET', `/api/DataSourceCollection/GetByDataAssetId/${regions.uid}`)).text,
    ) as { uid: string };
    const created = await call(url, oidc, 'POST', '/api/Token', {
      kind: 'personal',
      name: 'test:image',
      roles: [{ collectionUid: collection.uid, role: 'Reader' }],
    });
    const { secret } = JSON.parse(created.text) as { secret: string };
    const data = await call(url, secret, 'GET', `/data/v1/${regions.uid}`);
    check(
      'a data call with a Data Lab token answers rows',
      data.status === 200 && data.text.includes('"rows"'),
      `${data.status}`,
    );
    const refused = await call(url, `${secret.slice(0, -2)}xx`, 'GET', `/data/v1/${regions.uid}`);
    check('a wrong token is refused', refused.status === 401, `${refused.status}`);

    const rssMb = pid ? Number(statusLine(pid, 'VmRSS')?.[0]) / 1024 : NaN;
    const peakMb = pid ? Number(statusLine(pid, 'VmHWM')?.[0]) / 1024 : NaN;
    log(`server memory: ${rssMb.toFixed(0)} MB resident, ${peakMb.toFixed(0)} MB peak`);

    const stopStarted = performance.now();
    if (pid) process.kill(pid, 'SIGTERM');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    const stopMs = performance.now() - stopStarted;
    check(
      'SIGTERM stops it cleanly (drains, exit 0)',
      code === 0 && output.includes('"msg":"shutting down"'),
      `exit ${code} in ${(stopMs / 1000).toFixed(1)} s`,
    );
    if (results.some((result) => !result.ok)) log(`--- server output ---\n${output.slice(-4000)}`);
  } finally {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    run('buildah', ['rm', container]);
  }

  if (await isPostgresAvailable()) {
    log('== the scale-out shape: two web containers and a worker on PostgreSQL and Redis');
    await scaleOut(IMAGE);
  } else {
    check('PostgreSQL answers on 127.0.0.1:5432 for the scale-out checks', false, 'bash scripts/ensure-services.sh');
  }

  const failed = results.filter((result) => !result.ok).length;
  log('');
  log(
    `base image ${base}: ${baseSizeMb.toFixed(0)} MB; image ${IMAGE}: ${sizeMb.toFixed(0)} MB (${(sizeMb - baseSizeMb).toFixed(0)} MB above the base)`,
  );
  log(
    `base ${baseSeconds.toFixed(1)} s, build ${buildSeconds.toFixed(1)} s, whole run ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  log(`test:image: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

try {
  await main();
} catch (error) {
  process.stderr.write(`test:image: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
