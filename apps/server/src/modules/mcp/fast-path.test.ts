import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import mcpRoutes from './routes.ts';

// The fast path against the SDK's path as its oracle: one server answers /mcp with the fast path and /sdk/mcp
// through the SDK only (the same routes, fastPath off), and every request here goes to both and must answer the
// same status, content type and bytes — results, tool errors, validation errors with their allowed values,
// truncation, unknown tools, the rate limit. And the fast path refuses what the SDK path refuses: a revoked token,
// a tool outside a narrowed token's roles.

const LIMIT = 40;
const MAX_ROWS = 2;

interface Answer {
  result: {
    tools: { name: string }[];
    content: { text: string }[];
    structuredContent: { rows: Record<string, unknown>[]; rowCount: number; truncated: boolean };
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

interface World {
  owner: Person;
  reader: Person;
  other: { uid: string };
}

async function post(person: Person, url: string, body: unknown) {
  const response = await person.call('POST', url, body);
  if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number; uid: string }>();
}

async function buildWorld(t: TestApp): Promise<World> {
  const [owner, reader] = [await buildPerson(t), await buildPerson(t)];
  mkdirSync(join(t.config.dataDir, 'sources'), { recursive: true });
  const file = join(t.config.dataDir, 'sources', `${unique('oracle')}.sqlite`);
  const db = new DatabaseSync(file);
  db.exec(`
    create table countries (code text, name text);
    insert into countries values ('DE', 'Germany'), ('FR', 'France'), ('JP', 'Japan');
    create table people (email text, country text, visits integer, score real);
    insert into people values ('ann@example.com', 'DE', 3, 1.5), ('bob@example.com', 'DE', 5, 0.1),
      ('cy@example.com', 'DE', 7, -2), ('kei@example.com', 'JP', 1, 1e21);
  `);
  db.close();
  const first = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  const other = await buildCollection(t, owner);
  const connection = async (collectionUid: string) =>
    (await post(owner, '/api/SqlConnection', { collectionUid, name: unique('People'), kind: 'sqlite', database: file }))
      .id;
  const [firstConnection, otherConnection] = [await connection(first.uid), await connection(other.uid)];
  const countries = await post(owner, '/api/SqlDataSource', {
    collectionUid: first.uid,
    connectionId: firstConnection,
    name: unique('Countries'),
    sql: 'select code, name from countries order by code',
  });
  await post(owner, '/api/SqlDataSource', {
    collectionUid: first.uid,
    connectionId: firstConnection,
    name: 'Oracle people',
    description: 'Visitors “by” country.',
    mcpAvailable: true,
    sql: 'select email, country, visits, score from people where country = :country and visits >= :minVisits order by email',
    parameters: [
      {
        name: 'country',
        type: 'string',
        label: 'Country',
        required: true,
        allowedValues: { kind: 'dataSource', dataSourceId: countries.uid, valueColumn: 'code', labelColumn: 'name' },
      },
      { name: 'minVisits', type: 'integer', required: false, default: 0, min: 0, max: 100 },
    ],
    transformations: [{ rules: [{ type: 'mask', column: 'email', mode: 'full' }] }],
  });
  await post(owner, '/api/SqlDataSource', {
    collectionUid: other.uid,
    connectionId: otherConnection,
    name: 'Oracle secret',
    mcpAvailable: true,
    sql: 'select 42 as answer',
  });
  return { owner, reader, other: { uid: other.uid } };
}

describeEachStore(
  'MCP fast path',
  (context) => {
    let world: World;
    let id = 0;

    beforeAll(async () => {
      world = await buildWorld(context());
    });

    async function send(path: string, token: string, body: unknown, extra: Record<string, string> = {}) {
      const response = await context().app.inject({
        method: 'POST',
        url: path,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${token}`,
          ...extra,
        },
        payload: JSON.stringify(body),
      });
      return { status: response.statusCode, type: response.headers['content-type'], body: response.body };
    }

    /** The same request through both paths; their answers must be the same bytes. */
    async function both(token: string, method: string, params?: unknown, extra: Record<string, string> = {}) {
      id += 1;
      const message = { jsonrpc: '2.0', id: id % 2 === 0 ? id : `r-${id}`, method, ...(params ? { params } : {}) };
      const fast = await send('/mcp', token, message, extra);
      const sdk = await send('/sdk/mcp', token, message, extra);
      expect(fast).toEqual(sdk);
      return { status: fast.status, json: JSON.parse(fast.body) as Answer };
    }

    const call = (token: string, name: string, args?: Record<string, unknown>) =>
      both(token, 'tools/call', args === undefined ? { name } : { name, arguments: args });

    it('lists the same tools', async () => {
      const { json } = await both(world.reader.token, 'tools/list');
      expect(json.result.tools.map((tool) => tool.name)).toEqual(['oracle_people', 'parameter_values']);
      await both(world.owner.token, 'tools/list', {});
    });

    it('answers the same rows, masks and truncation', async () => {
      const { json } = await call(world.reader.token, 'oracle_people', { country: 'DE' });
      const content = json.result.structuredContent;
      expect(content).toMatchObject({ rowCount: MAX_ROWS, truncated: true });
      expect(String(content.rows[0]!['email'])).not.toContain('@example.com');
      const one = await call(world.reader.token, 'oracle_people', { country: 'JP' });
      expect(one.json.result.structuredContent).toMatchObject({ rowCount: 1, truncated: false });
      expect(one.json.result.isError).toBeUndefined();
    });

    it('answers the same tool errors: values not allowed, out of range, missing, unknown tools', async () => {
      const wrong = await call(world.reader.token, 'oracle_people', { country: 'XX' });
      expect(wrong.json.result.isError).toBe(true);
      expect(wrong.json.result.content[0]?.text).toContain('Allowed values of country');
      const range = await call(world.reader.token, 'oracle_people', { country: 'DE', minVisits: 500 });
      expect(range.json.result.isError).toBe(true);
      await call(world.reader.token, 'oracle_people', {});
      await call(world.reader.token, 'oracle_people');
      await call(world.reader.token, 'oracle_people', { country: 'DE', extra: true });
      await call(world.reader.token, 'parameter_values', { tool: 'oracle_people', parameter: 'country' });
      await call(world.reader.token, 'parameter_values', { tool: 'nope', parameter: 'country' });
      const unknown = await call(world.reader.token, 'oracle_secret', {});
      expect(unknown.json.error).toMatchObject({ code: -32602 });
    });

    it('leaves to the SDK what only it answers, with the same answers', async () => {
      await both(world.reader.token, 'ping');
      await both(world.reader.token, 'tools/call', { name: 42 });
      await both(world.reader.token, 'tools/call', { name: 'oracle_people', arguments: [1] });
      await both(world.reader.token, 'tools/call', { name: 'oracle_people', arguments: { country: 'DE' }, x: 1 });
      await both(world.reader.token, 'tools/list', { cursor: 'x' });
      await both(world.reader.token, 'nothing/here');
      const version = await both(world.reader.token, 'tools/list', undefined, { 'mcp-protocol-version': '1999-01-01' });
      expect(version.status).toBe(400);
      const accept = await both(world.reader.token, 'tools/list', undefined, { accept: 'application/json' });
      expect(accept.status).toBe(406);
    });

    it('refuses a revoked token and a tool outside a narrowed token’s roles, as the SDK path does', async () => {
      const created = await world.owner.call('POST', '/api/Token', {
        kind: 'personal',
        name: unique('Agent'),
        roles: [{ collectionUid: world.other.uid, role: 'Reader' }],
      });
      expect(created.statusCode).toBe(201);
      const token = created.json<{ id: number; secret: string }>();
      const listed = await both(token.secret, 'tools/list');
      expect(listed.json.result.tools.map((tool) => tool.name)).toEqual(['oracle_secret']);
      // The owner may call oracle_people; the token narrowed to the other collection may not.
      const narrowed = await call(token.secret, 'oracle_people', { country: 'DE' });
      expect(narrowed.json.error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool') });
      const allowed = await call(token.secret, 'oracle_secret', {});
      expect(allowed.json.result.structuredContent.rows).toEqual([{ answer: 42 }]);
      expect((await world.owner.call('PUT', `/api/Token/${token.id}/Revoke`)).statusCode).toBe(200);
      const revoked = await send('/mcp', token.secret, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'oracle_secret', arguments: {} },
      });
      expect(revoked.status).toBe(401);
      // The refusal carries no result (its request id is random, so the answer's digits are not looked for).
      expect(revoked.body).not.toContain('answer');
      expect(revoked.body).not.toContain('structuredContent');
    });

    it('answers the rate limit the same way', async () => {
      const caller = await buildPerson(context());
      await world.owner.call('PUT', `/api/DataRole/${caller.id}/UserDataRoles`, {
        collectionUid: world.other.uid,
        role: 'Reader',
      });
      for (let i = 0; i < LIMIT / 2; i += 1) await call(caller.token, 'oracle_secret', {});
      const fast = await send('/mcp', caller.token, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'oracle_secret', arguments: {} },
      });
      const sdk = await send('/sdk/mcp', caller.token, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'oracle_secret', arguments: {} },
      });
      const retry = (text: string) => text.replace(/Retry after \d+ s/, 'Retry after N s');
      expect(fast.body).toContain('The rate limit has been exceeded');
      expect(retry(fast.body)).toBe(retry(sdk.body));
    });
  },
  {
    env: { RATE_LIMIT_PER_MINUTE: String(LIMIT), MCP_ENABLED: 'true', MCP_MAX_ROWS: String(MAX_ROWS) },
    extend: async (app) => {
      await app.register(mcpRoutes, { prefix: '/sdk', fastPath: false });
    },
  },
);
