import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../apps/server/test/support/ports.ts';
import { createPostgresDatabase } from '../../apps/server/test/support/stores.ts';
import { call, check, log, must, readerToken, results, ROOT, run, runIn, serverPidOf, waitReady } from './harness.ts';

/**
 * compose.yaml's shape from this image: two web containers and a worker container started at the same instant, on
 * one fresh PostgreSQL database and the machine's Redis, sharing one data folder. Both web processes become ready
 * (the migrations ran once between them), and a download started on one is run by the worker and fetched from the
 * other.
 */
export async function scaleOut(image: string) {
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
        runIn(container, ['/app/deploy/container/entrypoint.sh', role], {
          network: true,
          // buildah run lays its own volume over the image's VOLUME /data, hiding a bind mount there: the shared
          // folder goes elsewhere and DATA_DIR names it.
          volumes: [`${data}:/shared`],
          env: [
            'DATA_DIR=/shared',
            ...env,
            ...(port ? [`PORT=${port}`, `PUBLIC_URL=http://localhost:${port}`] : []),
            `DEMO=${demo}`,
          ],
        }),
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
