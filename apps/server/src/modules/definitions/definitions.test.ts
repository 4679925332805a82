import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createTestApp } from '../../../test/support/app.ts';
import { auditRecords, buildCollection, buildPerson } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import {
  applyOk,
  definitionUrl,
  definitionWorld,
  exportJson,
  exportYaml,
  planOk,
  send,
  writeShop,
} from './test-world.ts';

// A collection's definition as code, through HTTP on both stores: export is stable, a plan of the export changes
// nothing, an edit plans exactly that change and applies to what the edited document says, twice is once, and a
// document from one server builds the same assets on another.

type Doc = {
  collection: { name: string; description: string };
  dataAssets: {
    name: string;
    rowCap: number;
    parameters: Record<string, unknown>[];
    transformations: { rules: Record<string, unknown>[] }[];
    clientTools: { tool: string }[];
  }[];
  sqlConnections: Record<string, unknown>[];
  prune?: boolean;
  [key: string]: unknown;
};

const rowsOf = async (call: Promise<{ statusCode: number; body: string }>) => {
  const response = await call;
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as unknown;
};

describeEachStore('definitions as code', (ctx, store) => {
  it('exports the same bytes twice, and a plan of the export changes nothing', async () => {
    const t = ctx();
    const { owner, collection } = await definitionWorld(t);
    const first = await exportYaml(t, owner, collection.uid);
    expect(await exportYaml(t, owner, collection.uid)).toBe(first);
    expect(first).toMatch(/^apiVersion: datalab\.io\/v1\nkind: CollectionDefinition\n/);
    const doc = parse(first) as Doc;
    expect(doc.dataAssets.map((a) => a.name)).toEqual(['Countries', 'People']);
    expect(doc.dataAssets[1]?.parameters[0]?.['allowedValues']).toEqual({
      kind: 'dataSource',
      dataAsset: 'Countries',
      valueColumn: 'code',
      labelColumn: 'name',
      dependsOn: [],
    });
    // JSON on any other Accept: the same document.
    expect(await exportJson(owner, collection.uid)).toEqual(doc);
    expect(await planOk(owner, collection.uid, first)).toEqual({ changes: [], missingSecrets: [] });
    expect(await planOk(owner, collection.uid, doc)).toEqual({ changes: [], missingSecrets: [] });
  });

  it('publishes the JSON Schema of the document beside the OpenAPI document', async () => {
    const response = await ctx().app.inject({ method: 'GET', url: '/api/docs/definition.schema.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/schema\+json/);
    const schema = response.json<{ properties: { apiVersion: { const: string } }; additionalProperties: boolean }>();
    expect(schema.properties.apiVersion.const).toBe('datalab.io/v1');
    expect(schema.additionalProperties).toBe(false);
  });

  it('plans exactly an edit, applies it in one go, and a second apply changes nothing', async () => {
    const t = ctx();
    const { owner, collection, peopleUid } = await definitionWorld(t);
    const doc = parse(await exportYaml(t, owner, collection.uid)) as Doc;
    const people = doc.dataAssets.find((a) => a.name === 'People');
    if (!people) throw new Error('no People');
    people.rowCap = 2;
    doc.collection.description = 'Shop data, reviewed';
    const edited = stringify(doc);
    const before = await rowsOf(owner.call('GET', `/api/DataSource/GetByUid/${peopleUid}`));
    const plan = await planOk(owner, collection.uid, edited);
    expect(plan.changes).toEqual([
      {
        kind: 'collection',
        name: collection.name,
        action: 'update',
        differences: [{ path: 'description', before: '', after: 'Shop data, reviewed' }],
      },
      { kind: 'dataAsset', name: 'People', action: 'update', differences: [{ path: 'rowCap', before: 500, after: 2 }] },
    ]);
    // A plan touches nothing.
    expect(await rowsOf(owner.call('GET', `/api/DataSource/GetByUid/${peopleUid}`))).toEqual(before);
    const applied = await applyOk(owner, collection.uid, edited);
    expect(applied).toEqual({ ...plan, applied: true });
    expect(await exportJson(owner, collection.uid)).toEqual(doc);
    const detail = (await rowsOf(owner.call('GET', `/api/DataSource/GetByUid/${peopleUid}`))) as { version: number };
    expect(detail.version).toBe((before as { version: number }).version + 1);
    expect(await applyOk(owner, collection.uid, edited)).toEqual({ changes: [], missingSecrets: [], applied: true });
    const audits = (await auditRecords(t, 'collection.definition.apply')).filter(
      (r) => r.details.actor.id === owner.id,
    );
    expect(audits).toHaveLength(1);
  });

  it('builds the same assets from an exported document on another server', async () => {
    const t = ctx();
    const sub = `definition-owner-${store}`;
    const { owner, collection, peopleUid } = await definitionWorld(t, sub);
    const yamlText = await exportYaml(t, owner, collection.uid);
    const other = await createTestApp(store);
    try {
      const twin = await buildPerson(other, { sub });
      const empty = await buildCollection(other, twin);
      writeShop(other, empty.uid);
      const doc = parse(yamlText) as Doc;
      // The other server's collection keeps its own name; the roles name people of the first server.
      doc.collection.name = empty.name;
      doc['dataRoles'] = { groups: [], users: [{ username: sub, role: 'Owner' }] };
      const plan = await planOk(twin, empty.uid, doc);
      expect(plan.changes.map((c) => `${c.action} ${c.kind} ${c.name}`)).toEqual([
        'create sqlConnection Shop',
        'create dataAsset Countries',
        'create dataAsset People',
      ]);
      await applyOk(twin, empty.uid, doc);
      const assets = (await rowsOf(twin.call('GET', `/api/DataSource?collectionUid=${empty.uid}`))) as {
        uid: string;
        name: string;
      }[];
      const twinPeople = assets.find((a) => a.name === 'People')?.uid;
      for (const query of ['country=DE', 'country=DE&country=JP']) {
        const here = await rowsOf(owner.call('GET', `/data/v1/${peopleUid}?${query}`));
        const there = await rowsOf(twin.call('GET', `/data/v1/${twinPeople ?? ''}?${query}`));
        // The same columns and rows (the time each took differs).
        const { durationMs: _here, ...hereRows } = here as Record<string, unknown>;
        const { durationMs: _there, ...thereRows } = there as Record<string, unknown>;
        expect(thereRows).toEqual(hereRows);
        expect((hereRows['rows'] as unknown[]).length).toBeGreaterThan(0);
      }
      const exported = parse(await exportYaml(other, twin, empty.uid)) as Doc;
      expect(exported.dataAssets).toEqual(doc.dataAssets);
    } finally {
      await other.close();
    }
  });

  it('deletes what a document leaves out only with prune: true', async () => {
    const t = ctx();
    const { owner, collection } = await definitionWorld(t);
    const doc = parse(await exportYaml(t, owner, collection.uid)) as Doc;
    doc.dataAssets = doc.dataAssets.filter((a) => a.name !== 'People');
    expect((await planOk(owner, collection.uid, doc)).changes).toEqual([]);
    expect((await applyOk(owner, collection.uid, doc)).changes).toEqual([]);
    expect((parse(await exportYaml(t, owner, collection.uid)) as Doc).dataAssets).toHaveLength(2);
    doc.prune = true;
    const pruned = await applyOk(owner, collection.uid, doc);
    expect(pruned.changes).toEqual([{ kind: 'dataAsset', name: 'People', action: 'delete', differences: [] }]);
    expect((parse(await exportYaml(t, owner, collection.uid)) as Doc).dataAssets.map((a) => a.name)).toEqual([
      'Countries',
    ]);
  });

  it('asks for the secrets a document names, stores them sealed and never exports them', async () => {
    const t = ctx();
    const { owner, collection } = await definitionWorld(t);
    const doc = parse(await exportYaml(t, owner, collection.uid)) as Doc;
    doc.sqlConnections.push({
      name: 'Warehouse',
      driver: 'postgres',
      host: '127.0.0.1',
      database: 'warehouse',
      username: 'reader',
      password: { secret: 'warehouse.password' },
    });
    const plan = await planOk(owner, collection.uid, doc);
    expect(plan.missingSecrets).toEqual(['warehouse.password']);
    const refused = await send(owner, collection.uid, 'Apply', doc);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: Record<string, string[]> }>().errors['secrets']?.[0]).toContain('warehouse.password');
    const applied = await applyOk(owner, collection.uid, doc, { 'warehouse.password': 'pg-S3cret-value' });
    expect(applied.changes.map((c) => `${c.action} ${c.name}`)).toEqual(['create Warehouse']);
    const text = await exportYaml(t, owner, collection.uid);
    expect(text).toContain('secret: warehouse.password');
    expect(text).not.toContain('pg-S3cret-value');
    const row = await t.app.db
      .selectFrom('connections')
      .select(['secret', 'secret_ref'])
      .where('name', '=', 'Warehouse')
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain('pg-S3cret-value');
    expect(t.app.sqlRuntime.box.open(row.secret ?? '')).toBe('pg-S3cret-value');
    // Held now: the next document need not send it again; a new value is a change of its own.
    expect((await planOk(owner, collection.uid, doc)).changes).toEqual([]);
    const rotated = await planOk(owner, collection.uid, doc, { 'warehouse.password': 'rotated' });
    expect(rotated.changes).toEqual([
      { kind: 'sqlConnection', name: 'Warehouse', action: 'update', differences: [{ path: 'password.value' }] },
    ]);
  });

  it('refuses a bad document with the path of what is wrong, and applies nothing of it', async () => {
    const t = ctx();
    const { owner, collection } = await definitionWorld(t);
    const original = await exportYaml(t, owner, collection.uid);
    const fresh = () => {
      const doc = parse(original) as Doc;
      doc.collection.description = 'would change';
      return doc;
    };
    const refusedAt = async (doc: unknown, path: string) => {
      for (const step of ['Plan', 'Apply'] as const) {
        const response = await send(owner, collection.uid, step, doc);
        expect(response.statusCode, response.body).toBe(400);
        expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toContain(path);
      }
    };
    const unknown = fresh();
    (unknown.dataAssets[1] as Record<string, unknown>)['colour'] = 'blue';
    await refusedAt(unknown, 'dataAssets.1.colour');
    const deepUnknown = fresh();
    (
      deepUnknown.dataAssets[1] as { transformations: { rules: Record<string, unknown>[] }[] }
    ).transformations[0]!.rules[0]!['shade'] = 1;
    await refusedAt(deepUnknown, 'dataAssets.1.transformations.0.rules.0.shade');
    const missingSource = fresh();
    (missingSource.dataAssets[1]!.parameters[0]!['allowedValues'] as Record<string, unknown>)['dataAsset'] = 'Nowhere';
    await refusedAt(missingSource, 'dataAssets.1.parameters.0.allowedValues.dataAsset');
    const cycle = fresh();
    cycle.dataAssets[1]!.parameters = [
      {
        name: 'a',
        type: 'string',
        allowedValues: {
          kind: 'dataSource',
          dataAsset: 'Countries',
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: ['b'],
        },
      },
      {
        name: 'b',
        type: 'string',
        allowedValues: {
          kind: 'dataSource',
          dataAsset: 'Countries',
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: ['a'],
        },
      },
      { name: 'country', type: 'string', list: true },
    ];
    await refusedAt(cycle, 'dataAssets.1.parameters.0.allowedValues.dependsOn');
    const collision = fresh();
    collision.dataAssets.push({ ...collision.dataAssets[0]!, name: 'countries' });
    await refusedAt(collision, 'dataAssets.2.name');
    const placeholder = fresh();
    (placeholder.dataAssets[0] as Record<string, unknown>)['sql'] = 'select * from countries where code = :code';
    await refusedAt(placeholder, 'dataAssets.0.sql');
    const huge = `${original}\n# ${'x'.repeat(10 * 1024 * 1024)}\n`;
    const tooLarge = await send(owner, collection.uid, 'Apply', huge);
    expect([400, 413]).toContain(tooLarge.statusCode);
    expect(tooLarge.body).toMatch(/5242880|larger|too large|exceeds/i);
    const tags = await send(owner, collection.uid, 'Plan', `${original}\nextra: !!js/function 'x'\n`);
    expect(tags.statusCode).toBe(400);
    const bomb = `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from({ length: 60 }, (_, i) => `k${i}: [*a,*a,*a]`).join('\n')}\n`;
    expect((await send(owner, collection.uid, 'Plan', bomb)).statusCode).toBe(400);
    expect(await exportYaml(t, owner, collection.uid)).toBe(original);
  });

  it('names what an export cannot express instead of failing blindly', async () => {
    const t = ctx();
    const { owner, collection, peopleUid } = await definitionWorld(t);
    const people = await t.app.db
      .selectFrom('data_sources')
      .select('id')
      .where('uid', '=', peopleUid)
      .executeTakeFirstOrThrow();
    // A pattern saved when patterns were JavaScript syntax, which RE2 (and so a document) refuses.
    const definition = JSON.stringify({
      name: 'country',
      type: 'string',
      list: true,
      required: true,
      pattern: '(a)\\1',
    });
    await t.app.db.updateTable('parameters').set({ definition }).where('data_source_id', '=', people.id).execute();
    const response = await owner.call('GET', definitionUrl(collection.uid));
    expect(response.statusCode).toBe(409);
    expect(response.json<{ title: string }>().title).toContain('dataAssets.1.parameters.0.pattern');
  });

  it('writes nothing when the store refuses one write in the middle of an apply', async () => {
    const t = ctx();
    const { owner, collection } = await definitionWorld(t);
    const original = await exportYaml(t, owner, collection.uid);
    const doc = parse(original) as Doc;
    doc.collection.description = 'changed first';
    doc.sqlConnections.push({ name: 'Spare', driver: 'sqlite', database: 'spare.sqlite' });
    const people = doc.dataAssets[1] as { rowCap: number; clientTools: { tool: string }[] };
    people.rowCap = 3;
    people.clientTools.push({ tool: 'powerbi' });
    const db = t.app.db;
    if (store === 'postgres') {
      await sql`create function refuse_tool() returns trigger language plpgsql as $$
        begin raise exception 'refused by the test'; end $$`.execute(db);
      await sql`create trigger refuse_tool before insert on client_tool_configurations for each row
        when (new.tool = 'powerbi') execute function refuse_tool()`.execute(db);
    } else {
      await sql`create trigger refuse_tool before insert on client_tool_configurations
        when new.tool = 'powerbi' begin select raise(abort, 'refused by the test'); end`.execute(db);
    }
    try {
      const failed = await send(owner, collection.uid, 'Apply', doc);
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await sql`drop trigger refuse_tool${store === 'postgres' ? sql` on client_tool_configurations` : sql``}`.execute(
        db,
      );
      if (store === 'postgres') await sql`drop function refuse_tool()`.execute(db);
    }
    expect(await exportYaml(t, owner, collection.uid)).toBe(original);
    expect(await auditRecords(t, 'collection.definition.apply')).toEqual(
      (await auditRecords(t, 'collection.definition.apply')).filter((r) => r.details.actor.id !== owner.id),
    );
  });

  it('lets only an Owner export, plan and apply, and a token only on its own collection', async () => {
    const t = ctx();
    const { owner, editor, reader, collection } = await definitionWorld(t);
    const doc = await exportJson(owner, collection.uid);
    for (const person of [editor, reader]) {
      expect((await person.call('GET', definitionUrl(collection.uid))).statusCode).toBe(403);
      expect((await send(person, collection.uid, 'Plan', doc)).statusCode).toBe(403);
      expect((await send(person, collection.uid, 'Apply', doc)).statusCode).toBe(403);
    }
    const stranger = await buildPerson(t);
    expect((await stranger.call('GET', definitionUrl(collection.uid))).statusCode).toBe(404);
    const elsewhere = await buildCollection(t, owner);
    const tokenAs = (role: string, on: { uid: string }) =>
      buildTokenCaller(t, owner, { kind: 'personal', roles: [{ collectionUid: on.uid, role }] });
    const narrowed = await tokenAs('Owner', elsewhere);
    expect((await narrowed.call('GET', definitionUrl(collection.uid))).statusCode).toBe(404);
    expect(
      (await narrowed.call('POST', definitionUrl(collection.uid, '/Apply'), { document: doc, secrets: {} })).statusCode,
    ).toBe(404);
    expect((await narrowed.call('GET', definitionUrl(elsewhere.uid))).statusCode).toBe(200);
    const readerToken = await tokenAs('Reader', collection);
    expect((await readerToken.call('GET', definitionUrl(collection.uid))).statusCode).toBe(403);
    // An Owner's token plans and applies assets, never roles.
    const ownerToken = await tokenAs('Owner', collection);
    const withRole = structuredClone(doc) as { dataRoles: { users: { username: string; role: string }[] } };
    const newcomer = await buildPerson(t, { sub: `newcomer-${store}-${Date.now()}` });
    const username = (await newcomer.call('GET', '/api/Account/GetCurrentUser')).json<{ username: string }>().username;
    withRole.dataRoles.users.push({ username, role: 'Reader' });
    const tokenApply = (document: unknown) =>
      ownerToken.call('POST', definitionUrl(collection.uid, '/Apply'), { document, secrets: {} });
    const refused = await tokenApply(withRole);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.body).toContain('cannot change data roles');
    expect((await tokenApply(doc)).statusCode).toBe(200);
    expect((await applyOk(owner, collection.uid, withRole)).changes).toEqual([
      { kind: 'dataRole', name: `user:${username}`, action: 'create', differences: [] },
    ]);
  });
});
