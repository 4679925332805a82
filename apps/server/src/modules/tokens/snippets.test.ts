import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { buildSnippet, dataSourceExamples, type SnippetKind, type SnippetRequest } from '@datalab/contract/snippets';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';

// The portal's client snippets (packages/contract/src/snippets.ts), run as their users would run them: the real
// server on a real port, a personal access token made through POST /api/Token, and curl, Node (this repository's)
// and python3 (standard library) as child processes. Their output must be the asset's rows, exactly as a direct
// call returns them; and a value full of quotes, backslashes, shell syntax and Unicode must arrive unchanged.

const run = promisify(execFile);

interface Reply {
  status: number;
  body: string;
}

const NASTY_VALUE = `O'Brien "the" \\ back\\slash $HOME \`id\` $(id) #(lf) 'x'\nZürich 😀 日本 \u202Eend`;

describe('client snippets against a running server', () => {
  let t: TestApp;
  let base: string;
  let oidcToken: string;
  let secret: string;
  let dir: string;
  let countries: SnippetRequest;
  let echo: SnippetRequest;

  const http = async (token: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.text() };
  };
  const json = async <T>(reply: Promise<Reply>, status = 200): Promise<T> => {
    const { status: actual, body } = await reply;
    if (actual !== status) throw new Error(`expected ${status}, got ${actual}: ${body}`);
    return JSON.parse(body) as T;
  };

  /** The portal's view of an asset, as the snippet panel gets it. */
  async function snippetRequest(search: string, values: Record<string, unknown>): Promise<SnippetRequest> {
    const list = await json<{ items: { uid: string; name: string }[] }>(
      http(oidcToken, 'GET', `/api/DataSource/GetAll?search=${encodeURIComponent(search)}`),
    );
    const found = list.items.find((item) => item.name === search);
    if (!found) throw new Error(`no asset ${search}`);
    const asset = dataSourceDetail.parse(await json(http(oidcToken, 'GET', `/api/DataSource/GetByUid/${found.uid}`)));
    return {
      callingLayerUrl: base,
      assetUid: asset.uid,
      assetName: asset.name,
      parameters: asset.parameters,
      values,
      format: 'json',
      token: secret,
    };
  }

  /** What the calling layer answers the portal's own (OIDC) token for the same values: the reference. */
  const direct = (request: SnippetRequest, format: 'json' | 'csv') =>
    http(oidcToken, 'POST', `/data/v1/${request.assetUid}?format=${format}`, request.values);

  /** Runs a snippet as its user would; answers its standard output. */
  async function runSnippet(kind: SnippetKind, request: SnippetRequest): Promise<string> {
    const { code } = buildSnippet(kind, request);
    const options = { encoding: 'utf8' as const, timeout: 20_000, env: { ...process.env, PYTHONIOENCODING: 'utf-8' } };
    if (kind === 'curl') return (await run('bash', ['-c', code], options)).stdout;
    const file = join(dir, kind === 'javascript' ? `${Math.random()}.mjs` : `${Math.random()}.py`);
    writeFileSync(file, code);
    const program = kind === 'javascript' ? process.execPath : 'python3';
    return (await run(program, [file], options)).stdout;
  }

  /** The rows a Python or JavaScript snippet printed: a count line, then one JSON object per row. */
  const printedRows = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as unknown);

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(join(tmpdir(), 'datalab-snippets-'));
    oidcToken = await t.tokenFor('partner');
    const admin = await t.tokenFor('admin');

    const collections = await json<{ items: { uid: string; name: string }[] }>(
      http(oidcToken, 'GET', '/api/DataSourceCollection/GetAll?search=Sales'),
    );
    const sales = collections.items.find((c) => c.name === 'Sales');
    if (!sales) throw new Error('the demo has no Sales collection');
    // The token is made as the portal makes it: POST /api/Token, Reader on what the partner reads.
    const created = await json<{ secret: string }>(
      http(oidcToken, 'POST', '/api/Token', {
        kind: 'personal',
        name: 'Snippets',
        roles: [{ collectionUid: sales.uid, role: 'Reader' }],
      }),
      201,
    );
    secret = created.secret;

    // A demo asset with a parameter: the countries of the first region.
    const regions = await json<{ rows: { id: number }[] }>(
      http(oidcToken, 'POST', `/data/v1/${(await snippetRequest('Regions', {})).assetUid}?format=json`, {}),
    );
    countries = await snippetRequest('Countries by region', { region: regions.rows[0]?.id });

    // An asset that answers its parameter back, made by the collection's Owner, to see values arrive unchanged.
    const connections = await json<{ id: number; name: string }[]>(
      http(admin, 'GET', `/api/SqlConnection?collectionUid=${sales.uid}`),
    );
    await json(
      http(admin, 'POST', '/api/SqlDataSource', {
        collectionUid: sales.uid,
        connectionId: connections.find((c) => c.name === 'Shop')?.id,
        name: 'Echo',
        sql: 'select :text as echo, :count as count',
        parameters: [
          { name: 'text', type: 'string', required: true },
          { name: 'count', type: 'integer', required: true },
        ],
      }),
      201,
    );
    echo = await snippetRequest('Echo', { text: NASTY_VALUE, count: 3 });
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('returns the rows of a demo asset with a parameter from curl, JavaScript and Python', async () => {
    const expected = JSON.parse((await direct(countries, 'json')).body) as { rows: unknown[] };
    expect(expected.rows.length).toBeGreaterThan(0);

    const curl = JSON.parse(await runSnippet('curl', countries)) as { rows: unknown[] };
    expect(curl.rows).toEqual(expected.rows);
    for (const kind of ['javascript', 'python'] as const) {
      const stdout = await runSnippet(kind, countries);
      expect(stdout.split('\n')[0], kind).toMatch(new RegExp(`^${expected.rows.length} rows`));
      expect(printedRows(stdout), kind).toEqual(expected.rows.slice(0, 10));
    }
  });

  it('returns the same CSV as a direct call, from curl and Python', async () => {
    const request = { ...countries, format: 'csv' as const };
    const expected = (await direct(request, 'csv')).body;
    expect(expected.split('\r\n').length).toBeGreaterThan(2);
    expect(await runSnippet('curl', request)).toBe(expected);

    const [header = '', ...lines] = expected.trim().split('\r\n');
    const names = header.split(',');
    const rows = printedRows(await runSnippet('python', request));
    expect(rows).toHaveLength(Math.min(lines.length, 10));
    expect(Object.keys(rows[0] as object)).toEqual(names);
  });

  it('sends values with quotes, backslashes, shell syntax and Unicode unchanged', async () => {
    const expected = [{ echo: NASTY_VALUE, count: 3 }];
    expect(JSON.parse((await direct(echo, 'json')).body)).toMatchObject({ rows: expected });
    expect(JSON.parse(await runSnippet('curl', echo))).toMatchObject({ rows: expected });
    expect(printedRows(await runSnippet('javascript', echo))).toEqual(expected);
    expect(printedRows(await runSnippet('python', echo))).toEqual(expected);
  });

  it("sends a dependent dropdown's first allowed values, which the server accepts, when no form gave any", async () => {
    const bare = await snippetRequest('Orders by country', {});
    const kinds = bare.parameters.map((p) => [p.name, p.allowedValues?.kind, p.required]);
    expect(kinds.slice(0, 2)).toEqual([
      ['region', 'dataSource', true],
      ['country', 'dataSource', true],
    ]);
    // The values the portal finds: each data source asked with the values before it, as the form asks.
    const stored = dataSourceDetail.parse(
      await json(http(oidcToken, 'GET', `/api/DataSource/GetByUid/${bare.assetUid}`)),
    );
    const examples = await dataSourceExamples(stored.parameters, {}, async (parameter, parents) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(parents)) for (const item of [value].flat()) query.append(name, item);
      const reply = await json<{ options: { value: unknown }[] }>(
        http(oidcToken, 'GET', `/api/DataSource/ParameterData/${parameter.id}?${query.toString()}`),
      );
      return reply.options;
    });
    expect(Object.keys(examples)).toEqual(['region', 'country']);
    const request = { ...bare, values: examples };
    const expected = JSON.parse(
      (await direct({ ...request, values: { ...examples, country: [examples['country']] } }, 'json')).body,
    ) as {
      rows: unknown[];
    };
    expect(expected.rows.length).toBeGreaterThan(0);
    expect(JSON.parse(await runSnippet('curl', request))).toMatchObject({ rows: expected.rows });
    for (const kind of ['javascript', 'python'] as const) {
      expect(printedRows(await runSnippet(kind, request)), kind).toEqual(expected.rows.slice(0, 10));
    }
    // Without them the snippet would send invented examples, which the server refuses.
    const invented = await runSnippet('curl', bare).then(
      () => 'succeeded',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(JSON.parse(invented)).toMatchObject({ status: 400 });
  });

  it('holds no token unless given one: with the placeholder the call is refused', async () => {
    const withoutToken = { ...countries, token: null };
    expect(buildSnippet('curl', withoutToken).code).not.toContain(secret);
    const failure = await runSnippet('curl', withoutToken).then(
      () => 'succeeded',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(JSON.parse(failure)).toMatchObject({ status: 401 });
  });
});
