import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fetchClient } from '../../apps/server/test/support/http.ts';
import { freePort } from '../../apps/server/test/support/ports.ts';
import { signIn } from '../../apps/server/test/support/sign-in.ts';
import {
  call,
  check,
  IMAGE,
  log,
  must,
  results,
  ROOT,
  run,
  runIn,
  serverPid,
  statusLine,
  waitReady,
} from './harness.ts';

/**
 * The image as one container in the embedded mode: what it holds and may write, the role argument, readiness, the
 * HEALTHCHECK, the server's user, parent and flags, the portal, the sign-in page, a data call with a Data Lab token,
 * and a clean stop on SIGTERM.
 */
export async function embeddedContainer(): Promise<void> {
  log('== buildah run --isolation chroot --network host');
  const container = must('buildah', ['from', '--pull-never', IMAGE]);
  let server: ChildProcess | undefined;
  try {
    const shipped = run(
      'buildah',
      runIn(container, [
        'node',
        '-e',
        "const fs=require('fs');console.log(JSON.stringify(['node_modules/vitest','node_modules/typescript'," +
          "'node_modules/react','packages','e2e','apps/server/src/app.ts','apps/web/src','apps/web/dist/index.html'," +
          "'apps/server/dist/server.js'].filter((p)=>fs.existsSync('/app/'+p))))",
      ]),
    );
    check(
      'it holds the server bundle and the built portal, no dev packages, no sources',
      shipped.stdout.trim() === JSON.stringify(['apps/web/dist/index.html', 'apps/server/dist/server.js']),
      shipped.stdout.trim() || shipped.stderr.trim(),
    );

    // What a read-only root filesystem would refuse, the image's user is refused already: it writes only /data.
    const writable = run(
      'buildah',
      runIn(container, [
        'node',
        '-e',
        "const fs=require('fs');console.log(JSON.stringify(['/app','/app/apps/server/dist','/','/usr/local','/data']" +
          ".filter((d)=>{try{fs.writeFileSync(d+'/.w','');fs.rmSync(d+'/.w');return true}catch{return false}})))",
      ]),
    );
    check(
      "the image's user can write /data and nothing of the image",
      writable.stdout.trim() === '["/data"]',
      writable.stdout.trim(),
    );

    const worker = run('buildah', runIn(container, ['/app/deploy/container/entrypoint.sh', 'worker']));
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
      runIn(container, ['/app/deploy/container/entrypoint.sh'], {
        network: true,
        env: [`PORT=${port}`, 'DEMO_SHOP_ORDERS=2000'],
      }),
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => server!.on('exit', (code) => resolveExit(code)));

    const readyMs = await waitReady(url, server, 180_000);
    check('it becomes ready (GET /health/ready 200)', true, `${(readyMs / 1000).toFixed(1)} s after start`);
    const health = run(
      'buildah',
      runIn(container, ['node', '/app/deploy/container/healthcheck.mjs'], { network: true, env: [`PORT=${port}`] }),
    );
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
}
