import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { fetchClient } from '../../apps/server/test/support/http.ts';
import { signIn } from '../../apps/server/test/support/sign-in.ts';

// What every attack case uses: the server's address, the demo's people signed in, the demo's collections and shop
// connection, and the helpers that send a request, save an asset or a connection, wait for a download and record
// a case's outcome (scripts/attack-check.ts runs the cases and prints the count).

export const BASE = process.env['BASE_URL'] ?? 'http://localhost:8117';
export const DATA_DIR = process.env['DATA_DIR'];
const PASSWORD = process.env['DEMO_PASSWORD'] ?? 'datalab';

export interface Reply {
  status: number;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- replies of many shapes, read by hand
  ms: number;
  headers: Headers;
}

export async function api(
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers = {},
): Promise<Reply> {
  const started = performance.now();
  const response = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: an export
  }
  return {
    status: response.status,
    text,
    json,
    ms: Math.round(performance.now() - started),
    headers: response.headers,
  };
}

export const results: { name: string; how: string; result: string; held: boolean }[] = [];
export function record(name: string, how: string, held: boolean, result: string) {
  results.push({ name, how, result, held });
  process.stdout.write(`${held ? 'HELD ' : 'BROKE'} ${name}\n      sent: ${how}\n      got:  ${result}\n`);
}
export const short = (reply: Reply) => `${reply.status} ${(reply.json?.title ?? reply.text).toString().slice(0, 160)}`;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const unique = (name: string) => `${name} ${randomBytes(3).toString('hex')}`;

async function token(username: string): Promise<string> {
  const publicUrl = BASE.replace('127.0.0.1', 'localhost');
  return (await signIn(fetchClient(), { publicUrl, username, password: PASSWORD })).access_token;
}

export const admin = await token('admin');
export const analyst = await token('analyst');
export const partner = await token('partner');
export const partnerId: number = (await api(partner, 'GET', '/api/Account/GetCurrentUser')).json.id;
export const collections = (await api(admin, 'GET', '/api/DataSourceCollection/GetAll')).json.items as {
  uid: string;
  name: string;
}[];
export const sales = collections.find((c) => c.name === 'Sales')!.uid;
export const operations = collections.find((c) => c.name === 'Operations')!.uid;
export const shop = (
  (await api(admin, 'GET', `/api/SqlConnection?collectionUid=${sales}`)).json as { id: number; kind: string }[]
).find((c) => c.kind === 'sqlite')!.id;

export async function asset(connectionId: number, sql: string, parameters: unknown[] = []): Promise<string> {
  const saved = await api(admin, 'POST', '/api/SqlDataSource', {
    collectionUid: sales,
    connectionId,
    name: unique('Attack'),
    sql,
    parameters,
  });
  if (saved.status !== 201) throw new Error(`asset not saved: ${saved.text}`);
  return saved.json.uid as string;
}

export async function connection(body: Record<string, unknown>): Promise<Reply> {
  return api(admin, 'POST', '/api/SqlConnection', { collectionUid: sales, name: unique('Attack db'), ...body });
}

export interface Job {
  id: string;
  state: string;
  expiresAt: string;
  truncated?: boolean;
}

export async function completedJob(who: string, dataAssetUid: string, format = 'csv'): Promise<Job> {
  const started = await api(who, 'POST', '/api/Download', { dataAssetUid, format });
  for (let i = 0; i < 60; i += 1) {
    const job = await api(who, 'GET', `/api/Download/${started.json.id}/Status`);
    if (job.json.state === 'Completed' || job.json.state === 'Failed') return job.json as Job;
    await sleep(250);
  }
  throw new Error('download did not finish');
}

export function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...filesContaining(path, needle));
    else if (readFileSync(path).includes(needle)) found.push(path);
  }
  return found;
}

export function trailerOf(path: string, bearer: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${BASE}${path}`,
      { headers: { authorization: `Bearer ${bearer}`, te: 'trailers' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.trailers['data-lab-truncated']));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
