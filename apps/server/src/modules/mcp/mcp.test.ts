import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUILT_IN_AUDIENCE } from '../../config.ts';
import { TEST_PUBLIC_URL, type TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { signWithServerKey } from '../../../test/support/tokens.ts';

// The MCP endpoint driven by the SDK's own Client and StreamableHTTPClientTransport against the real server: the
// tools each caller sees (narrowed by a token, never another collection's), a call answering masked rows, a value
// not allowed answered as a tool error listing the allowed values, revocation holding on the next request, the
// rate limit of the calling layer, its usage record, and the OAuth discovery a client needs when it has no token.

const LIMIT = 20;

interface World {
  owner: Person;
  reader: Person;
  first: { uid: string; assetUid: string };
  second: { uid: string; assetUid: string };
  hiddenName: string;
}

async function post(person: Person, url: string, body: unknown) {
  const response = await person.call('POST', url, body);
  if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number; uid: string; name: string }>();
}

async function buildWorld(t: TestApp): Promise<World> {
  const [owner, reader] = [await buildPerson(t), await buildPerson(t)];
  // Shared by both collections: a folder every collection may read (SQLITE_SHARED_PATHS of the test apps).
  mkdirSync(join(t.config.dataDir, 'sources'), { recursive: true });
  const file = join(t.config.dataDir, 'sources', `${unique('people')}.sqlite`);
  const db = new DatabaseSync(file);
  db.exec(`
    create table regions (id integer, name text);
    insert into regions values (1, 'Europe'), (2, 'Asia');
    create table countries (code text, name text, region_id integer);
    insert into countries values ('DE', 'Germany', 1), ('FR', 'France', 1), ('JP', 'Japan', 2);
    create table people (email text, country text, visits integer);
    insert into people values ('ann@example.com', 'DE', 3), ('bob@example.com', 'DE', 5), ('kei@example.com', 'JP', 1);
  `);
  db.close();
  const first = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  const second = await buildCollection(t, owner);
  const connection = async (collectionUid: string) =>
    (await post(owner, '/api/SqlConnection', { collectionUid, name: unique('People'), kind: 'sqlite', database: file }))
      .id;
  const firstConnection = await connection(first.uid);
  const secondConnection = await connection(second.uid);
  const asset = (collectionUid: string, connectionId: number, body: Record<string, unknown>) =>
    post(owner, '/api/SqlDataSource', { collectionUid, connectionId, ...body });
  const regions = await asset(first.uid, firstConnection, {
    name: unique('Regions'),
    sql: 'select id, name from regions',
  });
  const countries = await asset(first.uid, firstConnection, {
    name: unique('Countries'),
    sql: 'select code, name from countries where region_id = :region order by code',
    parameters: [{ name: 'region', type: 'integer', required: true }],
  });
  const people = await asset(first.uid, firstConnection, {
    name: 'People by country',
    description: 'Visitors of the shop, by country.',
    mcpAvailable: true,
    sql: 'select email, country, visits from people where country = :country and visits >= :minVisits order by email',
    parameters: [
      {
        name: 'region',
        type: 'integer',
        label: 'Region',
        required: false,
        allowedValues: { kind: 'dataSource', dataSourceId: regions.id, valueColumn: 'id', labelColumn: 'name' },
      },
      {
        name: 'country',
        type: 'string',
        label: 'Country',
        description: 'ISO country code',
        required: true,
        allowedValues: {
          kind: 'dataSource',
          dataSourceId: countries.uid,
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: ['region'],
        },
      },
      { name: 'minVisits', type: 'integer', required: false, default: 0, min: 0, max: 100 },
      {
        name: 'order',
        type: 'string',
        required: false,
        allowedValues: {
          kind: 'fixed',
          options: [
            { value: 'asc', label: 'Ascending' },
            { value: 'desc', label: 'Descending' },
          ],
        },
      },
    ],
    transformations: [{ rules: [{ type: 'mask', column: 'email', mode: 'full' }] }],
  });
  const hiddenName = unique('Not for agents');
  await asset(first.uid, firstConnection, { name: hiddenName, sql: 'select 1 as one' });
  const secret = await asset(second.uid, secondConnection, {
    name: 'Secret numbers',
    mcpAvailable: true,
    sql: 'select 42 as answer',
  });
  return {
    owner,
    reader,
    first: { uid: first.uid, assetUid: people.uid },
    second: { uid: second.uid, assetUid: secret.uid },
    hiddenName,
  };
}

describeApp(
  'MCP endpoint',
  (context) => {
    let world: World;
    let base: string;
    const clients: Client[] = [];

    beforeAll(async () => {
      world = await buildWorld(context());
      base = await context().app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined);
    });

    async function connect(token: string, name = 'mcp-test') {
      const client = new Client({ name, version: '1.2.3' });
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    }

    const call = async (client: Client, name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    it('lists a Reader the tools of their collection only, typed from the parameters', async () => {
      const client = await connect(world.reader.token);
      expect(client.getServerVersion()?.name).toBe('datalab');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['people_by_country', 'parameter_values']);
      const tool = tools[0]!;
      expect(tool.description).toContain('Visitors of the shop, by country.');
      expect(tool.description).toContain('country (Country), string, required: ISO country code');
      expect(tool.inputSchema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['country'],
        additionalProperties: false,
        properties: {
          country: { type: 'string', title: 'Country' },
          minVisits: { type: 'integer', minimum: 0, maximum: 100, default: 0 },
          order: {
            type: 'string',
            oneOf: [
              { const: 'asc', title: 'Ascending' },
              { const: 'desc', title: 'Descending' },
            ],
          },
        },
      });
      expect(
        String((tool.inputSchema.properties as Record<string, { description?: string }>)['country']?.description),
      ).toContain('parameter_values (given region)');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    });

    it('answers rows with the masks applied, recorded as an MCP call naming the client', async () => {
      const client = await connect(world.reader.token, 'claude-test');
      const result = await call(client, 'people_by_country', { region: 1, country: 'DE' });
      expect(result.content[0]).toMatchObject({ type: 'text' });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const content = result.structuredContent as {
        rows: Record<string, unknown>[];
        rowCount: number;
        truncated: boolean;
      };
      expect(content.rowCount).toBe(2);
      expect(content.truncated).toBe(false);
      expect(content.rows.map((row) => row['visits'])).toEqual([3, 5]);
      for (const row of content.rows) expect(String(row['email'])).not.toContain('@example.com');
      expect(result.content[0]).toMatchObject({
        type: 'text',
        text: expect.stringContaining('2 rows of "People by country"'),
      });
      // Once a result is known, the tool's output schema names its columns.
      const { tools } = await client.listTools();
      const rows = (tools[0]?.outputSchema?.properties as Record<string, { items: { properties: object } }>)['rows'];
      expect(Object.keys(rows?.items.properties ?? {})).toEqual(['email', 'country', 'visits']);
      const t = context();
      await t.app.usage.flush();
      const record = await t.app.db
        .selectFrom('usage_records')
        .selectAll()
        .where('data_source_uid', '=', world.first.assetUid)
        .where('channel', '=', 'mcp')
        .executeTakeFirst();
      expect(record).toMatchObject({ user_id: world.reader.id, status: 200 });
      expect(Number(record?.row_count)).toBe(2);
      const log = await t.app.db
        .selectFrom('application_logs')
        .select(['message'])
        .where('request_id', '=', String(record?.request_id))
        .where('category', '=', 'call')
        .executeTakeFirstOrThrow();
      expect(log.message).toContain('MCP tool call of People by country');
      expect(log.message).toContain('by claude-test/1.2.3');
      // The usage report shows the call apart, as MCP: its asset's split by channel, as its Owner reads it.
      const report = await world.owner.call(
        'GET',
        `/api/Reporting/GetDataSourceMetricsSummaries?dataAssetUid=${world.first.assetUid}`,
      );
      expect(report.statusCode, report.body).toBe(200);
      const { channels, totals } = report.json<{
        totals: { calls: number };
        channels: { channel: string; totals: { calls: number; rows: number } }[];
      }>();
      const of = (channel: string) => channels.find((entry) => entry.channel === channel)?.totals;
      expect(channels.map((entry) => entry.channel)).toEqual(['data-api', 'mcp', 'download']);
      expect(of('mcp')?.calls).toBe(totals.calls);
      expect(of('mcp')).toMatchObject({ rows: 2 });
      expect(of('data-api')?.calls).toBe(0);
      const direct = await world.reader.call('GET', `/data/v1/${world.first.assetUid}?region=1&country=DE`);
      expect(direct.statusCode, direct.body).toBe(200);
      await t.app.usage.flush();
      const after = (
        await world.owner.call(
          'GET',
          `/api/Reporting/GetDataSourceMetricsSummaries?dataAssetUid=${world.first.assetUid}`,
        )
      ).json<{ channels: { channel: string; totals: { calls: number } }[] }>();
      expect(after.channels.find((entry) => entry.channel === 'data-api')?.totals.calls).toBe(1);
      expect(after.channels.find((entry) => entry.channel === 'mcp')?.totals.calls).toBe(of('mcp')?.calls);
    });

    it('answers a value not allowed with a tool error listing the allowed values, and lists them on request', async () => {
      const client = await connect(world.reader.token);
      const wrong = await call(client, 'people_by_country', { region: 1, country: 'JP' });
      expect(wrong.isError).toBe(true);
      const text = (wrong.content[0] as { text: string }).text;
      expect(text).toContain('Allowed values of country: "DE" (Germany), "FR" (France).');
      const typed = await call(client, 'people_by_country', { country: 'DE', minVisits: 500 });
      expect(typed.isError).toBe(true);
      expect((typed.content[0] as { text: string }).text).toContain('minVisits');
      const values = await call(client, 'parameter_values', {
        tool: 'people_by_country',
        parameter: 'country',
        values: { region: 2 },
      });
      expect(values.isError).toBeFalsy();
      expect(values.structuredContent).toMatchObject({
        parameter: 'country',
        values: [{ value: 'JP', label: 'Japan' }],
      });
      const first = await call(client, 'parameter_values', { tool: 'people_by_country', parameter: 'country' });
      expect(first.isError).toBe(true);
      expect((first.content[0] as { text: string }).text).toContain('Choose region first');
      await expect(call(client, 'secret_numbers', {})).rejects.toThrow(/Unknown tool/);
    });

    it('narrows the tools to a token’s roles, and a revoked token fails on its next request', async () => {
      const owner = await connect(world.owner.token);
      expect((await owner.listTools()).tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['people_by_country', 'secret_numbers']),
      );
      const created = await world.owner.call('POST', '/api/Token', {
        kind: 'personal',
        name: unique('Agent'),
        roles: [{ collectionUid: world.second.uid, role: 'Reader' }],
      });
      expect(created.statusCode).toBe(201);
      const token = created.json<{ id: number; secret: string }>();
      const narrowed = await connect(token.secret);
      expect((await narrowed.listTools()).tools.map((tool) => tool.name)).toEqual(['secret_numbers']);
      const answer = await call(narrowed, 'secret_numbers', {});
      expect(answer.structuredContent).toMatchObject({ rows: [{ answer: 42 }] });
      const revoked = await world.owner.call('PUT', `/api/Token/${token.id}/Revoke`);
      expect(revoked.statusCode).toBe(200);
      await expect(call(narrowed, 'secret_numbers', {})).rejects.toThrow(/401/);
    });

    it('follows the switches: an asset off for agents, a collection with MCP off', async () => {
      const client = await connect(world.owner.token);
      const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
      expect(await names()).not.toContain(world.hiddenName.toLowerCase().replace(/[^a-z0-9]+/g, '_'));
      const collection = (
        await world.owner.call('GET', `/api/DataSourceCollection/GetByUid/${world.second.uid}`)
      ).json<{
        name: string;
        description: string;
      }>();
      const off = await world.owner.call('PUT', '/api/DataSourceCollection', {
        uid: world.second.uid,
        name: collection.name,
        description: collection.description,
        mcpEnabled: false,
      });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json()).toMatchObject({ mcpEnabled: false });
      expect(await names()).not.toContain('secret_numbers');
      await world.owner.call('PUT', '/api/DataSourceCollection', {
        uid: world.second.uid,
        name: collection.name,
        description: collection.description,
        mcpEnabled: true,
      });
      expect(await names()).toContain('secret_numbers');
    });

    it('answers a call over the limit as the calling layer does, as a tool error', async () => {
      const caller = await buildPerson(context());
      await world.owner.call('PUT', `/api/DataRole/${caller.id}/UserDataRoles`, {
        collectionUid: world.first.uid,
        role: 'Reader',
      });
      const client = await connect(caller.token);
      const results = [];
      for (let i = 0; i <= LIMIT; i += 1) {
        results.push(await call(client, 'people_by_country', { region: 1, country: 'FR' }));
      }
      expect(results.slice(0, LIMIT).filter((result) => result.isError)).toEqual([]);
      const refused = results[LIMIT]!;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toMatch(
        /The rate limit has been exceeded for this call\.[\s\S]*Retry after \d+ s\./,
      );
    });

    it('answers 401 naming the resource metadata, which names the provider; other audiences are refused', async () => {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      };
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const none = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
      expect(none.status).toBe(401);
      const metadataUrl = `${TEST_PUBLIC_URL}/.well-known/oauth-protected-resource/mcp`;
      expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const metadata = await fetch(`${base}${path}`);
        expect(metadata.status).toBe(200);
        expect(await metadata.json()).toMatchObject({
          resource: `${TEST_PUBLIC_URL}/mcp`,
          authorization_servers: [`${TEST_PUBLIC_URL}/oidc`],
          bearer_methods_supported: ['header'],
        });
      }
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: `${TEST_PUBLIC_URL}/oidc`, sub: world.reader.id.toString(), iat: now, exp: now + 600 };
      const elsewhere = await signWithServerKey(context().config.dataDir, {
        ...claims,
        aud: 'https://other.example/mcp',
      });
      const refused = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${elsewhere}` },
        body: JSON.stringify(initialize),
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${metadataUrl}", error="invalid_token"`,
      );
      const ours = await signWithServerKey(context().config.dataDir, { ...claims, aud: BUILT_IN_AUDIENCE });
      const accepted = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${ours}` },
        body: JSON.stringify(initialize),
      });
      expect(accepted.status).toBe(200);
    });

    it('refuses a Host or Origin other than the public URL’s (DNS rebinding)', async () => {
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${world.reader.token}`,
      };
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const t = context();
      const host = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...headers, host: 'evil.example' },
        body,
      });
      expect(host.statusCode).toBe(403);
      const origin = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...headers, host: 'localhost:8080', origin: 'http://evil.example' },
        body,
      });
      expect(origin.statusCode).toBe(403);
      const fine = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...headers, host: 'localhost:8080', origin: 'http://localhost:8080' },
        body,
      });
      expect(fine.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/mcp', headers })).statusCode).toBe(405);
    });
  },
  { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), MCP_ENABLED: 'true' } },
);
