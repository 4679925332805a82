import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCollection, buildPerson } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import type { TestApp } from '../../../test/support/app.ts';
import type { Person } from '../../../test/support/builders.ts';
import { createItemsAsset, startUpstream, UPSTREAM_KEY, webApiWorld, type Upstream } from './test-upstream.ts';

// Web API connections, their credentials and Web API assets in a definition: the credential's secret is a
// reference the importing side supplies, the asset names its connection and credential, and the copy answers the
// same rows from the same upstream. Allowed internal hosts stay an administrator's to change.

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

type Doc = {
  collection: { name: string };
  webApiConnections: { name: string; allowedHosts: string[]; credentials: { secret?: { secret: string } }[] }[];
  dataAssets: { name: string; kind: string; credential?: string }[];
  dataRoles: unknown;
};

const definitionUrl = (uid: string, step = '') => `/api/DataSourceCollection/${uid}/Definition${step}`;

async function exportYaml(t: TestApp, person: Person, uid: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: definitionUrl(uid),
    headers: { authorization: `Bearer ${person.token}`, accept: 'application/yaml' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

const send = (person: Person, uid: string, step: 'Plan' | 'Apply', document: unknown, secrets = {}) =>
  person.call('POST', definitionUrl(uid, `/${step}`), { document, secrets });

async function planOk(person: Person, uid: string, document: unknown, secrets = {}) {
  const response = await send(person, uid, 'Plan', document, secrets);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ changes: unknown[]; missingSecrets: string[] }>();
}

async function applyOk(person: Person, uid: string, document: unknown, secrets = {}) {
  const response = await send(person, uid, 'Apply', document, secrets);
  expect(response.statusCode, response.body).toBe(200);
}

describeEachStore('definitions with Web API connections', (ctx) => {
  it('exports a Web API connection with its credential by reference and builds the same asset elsewhere', async () => {
    const t = ctx();
    const w = await webApiWorld(t, upstream);
    const created = await createItemsAsset(w.editor, w);
    expect(created.statusCode, created.body).toBe(201);
    const asset = created.json<{ uid: string; name: string }>();
    const text = await exportYaml(t, w.owner, w.collection.uid);
    expect(text).not.toContain(UPSTREAM_KEY);
    expect(await planOk(w.owner, w.collection.uid, text)).toEqual({ changes: [], missingSecrets: [] });
    const doc = parse(text) as Doc;
    const reference = doc.webApiConnections[0]?.credentials[0]?.secret?.secret ?? '';
    expect(reference).toMatch(/\.key\.secret$/);
    expect(doc.dataAssets[0]).toMatchObject({ kind: 'webapi', credential: 'Key' });

    const copy = await buildCollection(t, w.owner);
    doc.collection.name = copy.name;
    doc.dataRoles = { groups: [], users: [] };
    const plan = await planOk(w.owner, copy.uid, doc);
    expect(plan.missingSecrets).toEqual([reference]);
    expect((await send(w.owner, copy.uid, 'Apply', doc)).statusCode).toBe(400);
    await applyOk(w.owner, copy.uid, doc, { [reference]: UPSTREAM_KEY });
    expect(await planOk(w.owner, copy.uid, doc)).toEqual({ changes: [], missingSecrets: [] });
    const list = await w.owner.call('GET', `/api/DataSource?collectionUid=${copy.uid}`);
    const copied = list.json<{ uid: string; name: string }[]>().find((a) => a.name === asset.name);
    const here = await w.owner.call('GET', `/data/v1/${asset.uid}?region=EU`);
    const there = await w.owner.call('GET', `/data/v1/${copied?.uid ?? ''}?region=EU`);
    expect(there.statusCode, there.body).toBe(200);
    const rows = (body: string) => (JSON.parse(body) as { rows: unknown[] }).rows;
    expect(rows(there.body)).toEqual(rows(here.body));
    expect(rows(here.body).length).toBeGreaterThan(0);
  });

  it('leaves allowed internal hosts to an administrator', async () => {
    const t = ctx();
    const w = await webApiWorld(t, upstream);
    const doc = parse(await exportYaml(t, w.owner, w.collection.uid)) as Doc;
    const owner = await buildPerson(t);
    const mine = await buildCollection(t, owner);
    doc.collection.name = mine.name;
    doc.dataRoles = { groups: [], users: [] };
    const refused = await send(owner, mine.uid, 'Apply', doc, {
      [doc.webApiConnections[0]?.credentials[0]?.secret?.secret ?? '']: UPSTREAM_KEY,
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.body).toContain('allowed internal hosts');
    const list = await owner.call('GET', `/api/WebApiConnection?collectionUid=${mine.uid}`);
    expect(list.json()).toEqual([]);
  });
});
