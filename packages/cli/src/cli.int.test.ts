import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../apps/server/test/support/app.ts';

// The `datalab` command as a pipeline runs it: the bin link in node_modules/.bin (Node 24 strips the types through
// the workspace link) as a child process, against the real server on a real port, signed in as the demo's admin,
// who owns the Sales collection.

const BIN = join(import.meta.dirname, '../../../node_modules/.bin/datalab');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function datalab(args: string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // Only what the command reads: no DATALAB_* variable of the machine running the tests.
      env: { PATH: process.env['PATH'] ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const t = await createTestApp('sqlite');
const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
const admin = await t.tokenFor('admin');
const partner = await t.tokenFor('partner');
afterAll(() => t.close());

async function api(token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const collections = (await api(admin, 'GET', '/api/DataSourceCollection/GetAll?search=Sales')) as {
  items: { uid: string; name: string; description: string }[];
};
const sales = collections.items.find((collection) => collection.name === 'Sales');
if (!sales) throw new Error('the demo has no Sales collection');

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

// Each command is a Node process of its own (~1–2 s on a busy machine): the tests get more than the default time.
describe('datalab definition against a running server', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'datalab-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const owner = { DATALAB_URL: base, DATALAB_TOKEN: admin };
  const file = join(dir, 'sales.datalab.yaml');

  it('exports, plans no change, sees a change made elsewhere, applies the document back', async () => {
    const exported = await datalab(['definition', 'export', '--collection', sales.uid, '--file', file], owner);
    expect(exported.stderr).toBe(`Wrote the definition of ${sales.uid} to ${file}\n`);
    expect(exported.code).toBe(0);
    const yaml = readFileSync(file, 'utf8');
    expect(yaml).toContain('apiVersion');
    // Two exports of the same state are byte-equal; standard output carries the same document.
    const again = await datalab(['definition', 'export', '--collection', sales.uid], owner);
    expect(again.stdout).toBe(yaml);

    const unchanged = await datalab(
      ['definition', 'plan', '--collection', sales.uid, '--file', file, '--detailed-exitcode'],
      owner,
    );
    expect(unchanged.stdout).toBe('No changes: the collection matches the document.\n');
    expect(unchanged.code).toBe(0);

    await api(admin, 'PUT', '/api/DataSourceCollection', {
      uid: sales.uid,
      name: sales.name,
      description: 'Changed in the portal',
    });
    // The document, read from standard input, now differs in exactly the description.
    const changed = await datalab(
      ['definition', 'plan', '--collection', sales.uid, '--detailed-exitcode'],
      owner,
      yaml,
    );
    expect(changed.stderr).toBe('');
    expect(changed.code).toBe(2);
    expect(changed.stdout).toContain(`~ update collection "Sales"`);
    expect(changed.stdout).toMatch(
      new RegExp(`^ {6}\\S*description: "Changed in the portal" → ${escape(JSON.stringify(sales.description))}$`, 'mu'),
    );
    expect(changed.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete.');
    // Without --detailed-exitcode a plan with changes is a success.
    const plain = await datalab(['definition', 'plan', '--collection', sales.uid, '--file', file, '--json'], owner);
    expect(plain.code).toBe(0);
    const plan = JSON.parse(plain.stdout) as { changes: { kind: string; action: string; differences: unknown[] }[] };
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({ kind: 'collection', action: 'update' });
    expect(plan.changes[0]?.differences).toHaveLength(1);

    const applied = await datalab(['definition', 'apply', '--collection', sales.uid, '--file', file], owner);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Applied: 0 created, 1 updated, 0 deleted.');
    const detail = await api(admin, 'GET', `/api/DataSourceCollection/GetByUid/${sales.uid}`);
    expect(detail['description']).toBe(sales.description);
    const after = await datalab(
      ['definition', 'plan', '--collection', sales.uid, '--file', file, '--detailed-exitcode'],
      owner,
    );
    expect(after.code).toBe(0);
  });

  it('refuses a bad document with the field path, and changes nothing', async () => {
    const before = await datalab(['definition', 'export', '--collection', sales.uid], owner);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, `${before.stdout}unknownField: 1\n`);
    const refused = await datalab(['definition', 'apply', '--collection', sales.uid, '--file', bad], owner);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^datalab: The server refused the request \(400\): .+\n {2}\S*unknownField\S*: /u);
    const after = await datalab(['definition', 'export', '--collection', sales.uid], owner);
    expect(after.stdout).toBe(before.stdout);
  });

  it('says why the server refused: a bad token (never printed), someone who is not an Owner', async () => {
    const forged = 'not-a-valid-token-x1y2z3';
    const unknown = await datalab(['definition', 'export', '--collection', sales.uid], {
      DATALAB_URL: base,
      DATALAB_TOKEN: forged,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^datalab: The server did not accept the token in DATALAB_TOKEN \(401\): .+/u);
    expect(unknown.stderr + unknown.stdout).not.toContain(forged);

    const reader = await datalab(['definition', 'plan', '--collection', sales.uid, '--file', file], {
      DATALAB_URL: base,
      DATALAB_TOKEN: partner,
    });
    expect(reader.code).toBe(1);
    expect(reader.stderr).toMatch(/^datalab: Not allowed \(403\): /u);
  });
});

it('says when the server cannot be reached', async () => {
  const nowhere = await datalab(['definition', 'export', '--collection', sales.uid], {
    DATALAB_URL: 'http://127.0.0.1:59',
    DATALAB_TOKEN: admin,
  });
  expect(nowhere.code).toBe(1);
  expect(nowhere.stderr).toMatch(/^datalab: Cannot reach the server at http:\/\/127\.0\.0\.1:59 \(ECONNREFUSED/u);
  expect(nowhere.stderr).not.toContain(admin);
});
