import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAssets, psql, type PgTarget } from './lib/calling-setup.ts';
import { adminToken, startDataLab, type DataLabServer } from './lib/datalab.ts';
import { stop } from './lib/processes.ts';
import { print } from './lib/stats.ts';
import type { Verdict } from './lib/types.ts';

// Target: "Revocation holds on the next call, also across instances": a personal access token revoked through
// `PUT /api/Token/{id}/Revoke` is refused (401) by the very next call — on the same server, while other calls with
// it are in flight, and on a second server instance sharing one PostgreSQL metadata store.

export interface Pat {
  id: number;
  secret: string;
}

interface Call {
  startedAt: number;
  status: number;
}

export interface RevocationData {
  /** Status of the call just before and just after the revocation, per scenario. */
  checks: { scenario: string; before: number; revokeStatus: number; after: number }[];
  underLoad?: {
    calls: number;
    startedAfterRevocation: number;
    /** Calls started after the revocation had answered that still got a 2xx: must be 0. */
    succeededAfterRevocation: number;
    /** Calls in flight while the revocation ran that got a 2xx: allowed, they were authenticated before it. */
    succeededDuringRevocation: number;
    statusesAfter: Record<string, number>;
  };
  notes: string[];
}

async function request(server: DataLabServer, method: string, path: string, token: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

/** The collection of an asset (to give a token a role there). */
export async function collectionOf(server: DataLabServer, oidc: string, assetUid: string): Promise<string> {
  const reply = await request(server, 'GET', `/api/DataSourceCollection/GetByDataAssetId/${assetUid}`, oidc);
  if (reply.status !== 200) throw new Error(`GetByDataAssetId: ${reply.status} ${reply.text}`);
  return (JSON.parse(reply.text) as { uid: string }).uid;
}

/** A personal access token of the signed-in user with Reader on the collection, made through `POST /api/Token`. */
export async function createPat(server: DataLabServer, oidc: string, collectionUid: string, name: string) {
  const reply = await request(server, 'POST', '/api/Token', oidc, {
    kind: 'personal',
    name,
    roles: [{ collectionUid, role: 'Reader' }],
  });
  if (reply.status !== 201) throw new Error(`POST /api/Token: ${reply.status} ${reply.text}`);
  const { id, secret } = JSON.parse(reply.text) as { id: number; secret: string };
  return { id, secret } satisfies Pat;
}

const callAsset = async (server: DataLabServer, assetUid: string, secret: string) =>
  (await request(server, 'GET', `/data/v1/${assetUid}?customer_id=${1 + Math.floor(Math.random() * 10_000)}`, secret))
    .status;

const revoke = async (server: DataLabServer, oidc: string, pat: Pat) =>
  (await request(server, 'PUT', `/api/Token/${pat.id}/Revoke`, oidc)).status;

/** One call, the revocation (on `revokeOn`), the very next call (on `callOn`). */
async function nextCall(scenario: string, callOn: DataLabServer, revokeOn: DataLabServer, assetUid: string, pat: Pat) {
  const before = await callAsset(callOn, assetUid, pat.secret);
  const revokeStatus = await revoke(revokeOn, await adminToken(revokeOn), pat);
  const after = await callAsset(callOn, assetUid, pat.secret);
  print(`${scenario}: before ${before}, revoke ${revokeStatus}, next call ${after}`);
  return { scenario, before, revokeStatus, after };
}

/**
 * `workers` loops calling with the token; the revocation runs in the middle. Every call started after the revocation
 * answered must be refused. Refusals turn from 401 into 429 once the address has failed 60 times in a minute
 * (decision 75): both count as refused.
 */
async function underLoad(server: DataLabServer, assetUid: string, pat: Pat, oidc: string, workers = 20) {
  const calls: Call[] = [];
  let running = true;
  const worker = async () => {
    while (running) {
      const startedAt = performance.now();
      calls.push({ startedAt, status: await callAsset(server, assetUid, pat.secret) });
    }
  };
  const loops = Array.from({ length: workers }, worker);
  await sleep(1000);
  const revokeStarted = performance.now();
  const revokeStatus = await revoke(server, oidc, pat);
  const revokeAnswered = performance.now();
  await sleep(300);
  running = false;
  await Promise.all(loops);
  const ok = (call: Call) => call.status >= 200 && call.status < 300;
  const after = calls.filter((call) => call.startedAt >= revokeAnswered);
  const during = calls.filter((call) => call.startedAt >= revokeStarted && call.startedAt < revokeAnswered);
  const statusesAfter: Record<string, number> = {};
  for (const call of after) statusesAfter[call.status] = (statusesAfter[call.status] ?? 0) + 1;
  print(
    `under load (${workers} workers): revoke ${revokeStatus}; ${after.length} calls started after it answered, ` +
      `${after.filter(ok).length} succeeded (${JSON.stringify(statusesAfter)})`,
  );
  return {
    calls: calls.length,
    startedAfterRevocation: after.length,
    succeededAfterRevocation: after.filter(ok).length,
    succeededDuringRevocation: during.filter(ok).length,
    statusesAfter,
  };
}

/** Two instances on one fresh PostgreSQL metadata database (dropped afterwards), one DATA_DIR (same keys). */
async function acrossInstances(target: PgTarget, dataDir: string, logFile: string) {
  const database = `bench_tokens_meta_${randomBytes(4).toString('hex')}`;
  psql(target, ['-c', `create database "${database}"`], 'postgres');
  const env = {
    DATABASE_URL: `postgres://${target.user}@${target.host}:${target.port}/${database}`,
    DEMO_SHOP_ORDERS: '200',
    RATE_LIMIT_PER_MINUTE: '1000000',
  };
  const servers: DataLabServer[] = [];
  try {
    // One after the other: the first migrates and seeds, the second finds it done.
    for (let i = 0; i < 2; i += 1)
      servers.push(await startDataLab({ dataDir, logLevel: 'warn', stdout: logFile, env }));
    const [first, second] = servers as [DataLabServer, DataLabServer];
    const assets = await createAssets(first, target, 0);
    const oidc = await adminToken(first);
    const collection = await collectionOf(first, oidc, assets.cacheOff);
    return [
      await nextCall(
        'two instances: revoked on the first, next call on the second',
        second,
        first,
        assets.cacheOff,
        await createPat(first, oidc, collection, 'revoked on first'),
      ),
      await nextCall(
        'two instances: revoked on the second, next call on the first',
        first,
        second,
        assets.cacheOff,
        await createPat(first, oidc, collection, 'revoked on second'),
      ),
    ];
  } finally {
    for (const server of servers) await stop(server.child);
    psql(target, ['-c', `drop database if exists "${database}" with (force)`], 'postgres');
  }
}

export async function revocationPart(
  server: DataLabServer,
  assetUid: string,
  collectionUid: string,
  instances: { target: PgTarget; dataDir: string; logFile: string } | undefined,
): Promise<RevocationData> {
  const oidc = await adminToken(server);
  const checks = [
    await nextCall(
      'one instance (embedded store)',
      server,
      server,
      assetUid,
      await createPat(server, oidc, collectionUid, 'next call'),
    ),
  ];
  const loaded = await underLoad(server, assetUid, await createPat(server, oidc, collectionUid, 'under load'), oidc);
  const notes: string[] = [];
  if (instances) checks.push(...(await acrossInstances(instances.target, instances.dataDir, instances.logFile)));
  else notes.push('two instances not run (--instances=off): see apps/server/src/modules/tokens/instances.test.ts');
  return { checks, underLoad: loaded, notes };
}

export function revocationVerdicts(data: RevocationData): Verdict[] {
  const verdicts = data.checks.map((check): Verdict => ({
    target: `revocation holds on the next call: ${check.scenario}`,
    measured: `before ${check.before}, revoke ${check.revokeStatus}, next call ${check.after}`,
    pass: check.before === 200 && check.revokeStatus === 200 && check.after === 401,
  }));
  const loaded = data.underLoad;
  if (loaded) {
    verdicts.push({
      target: 'revocation under load: no call started after the revocation answered succeeds',
      measured:
        `${loaded.succeededAfterRevocation} of ${loaded.startedAfterRevocation} succeeded ` +
        `(${JSON.stringify(loaded.statusesAfter)}; ${loaded.succeededDuringRevocation} in flight during it succeeded)`,
      pass: loaded.startedAfterRevocation > 0 && loaded.succeededAfterRevocation === 0,
    });
  }
  return verdicts;
}
