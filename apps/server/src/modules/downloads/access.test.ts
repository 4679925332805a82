import type { DownloadJob } from '@datalab/contract/api/downloads';
import { beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import { buildAsset, buildConnection, createSqliteSource } from '../../../test/support/orders-source.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Who reaches a download job, on every request: its owner only, and only while they (narrowed by the token they
// call with) may still call the data of the job's collection; a job past its expiry serves no file, swept or not.
// Everything through HTTP (inject): roles change through the access API, tokens are made through the token API.

type Caller = Pick<Person, 'call'>;

/** A collection of `owner`'s with one callable asset over the orders table. */
interface Place {
  uid: string;
  assetUid: string;
}

async function buildPlace(t: TestApp, owner: Person): Promise<Place> {
  const collection = await buildCollection(t, owner);
  const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
  const asset = await buildAsset(owner, collection, connection, { sql: 'select id, region from orders order by id' });
  return { uid: collection.uid, assetUid: asset.uid };
}

/** A personal access token of `person`'s, Reader on `place` only, made through the token API; as a caller. */
const readerToken = (t: TestApp, person: Person, place: Place) =>
  buildTokenCaller(t, person, { kind: 'personal', roles: [{ collectionUid: place.uid, role: 'Reader' }] });

/** Status, file and presence in the list of one job, as `caller` sees them. */
async function reach(caller: Caller, id: string) {
  const status = await caller.call('GET', `/api/Download/${id}/Status`);
  const file = await caller.call('GET', `/api/Download/${id}/File`);
  const list = (await caller.call('GET', '/api/Download?pageSize=100')).json<{ items: { id: string }[] }>();
  return { status: status.statusCode, file: file.statusCode, listed: list.items.some((job) => job.id === id) };
}

const hidden = { status: 404, file: 404, listed: false };
const reachable = { status: 200, file: 200, listed: true };

describeApp('download access', (context) => {
  let owner: Person;
  let first: Place;
  let second: Place;

  beforeAll(async () => {
    owner = await buildPerson(context());
    [first, second] = [await buildPlace(context(), owner), await buildPlace(context(), owner)];
  });

  const completed = async (caller: Person, place: Place): Promise<DownloadJob> =>
    waitFor(caller, (await startJob(caller, { dataAssetUid: place.assetUid, format: 'csv' })).id);

  const setRole = async (person: Person, place: Place, role: 'Reader' | null) => {
    const response = await owner.call('PUT', `/api/DataRole/${person.id}/UserDataRoles`, {
      collectionUid: place.uid,
      role,
    });
    expect(response.statusCode).toBe(200);
  };

  it("keeps a personal access token narrowed to one collection out of its owner's jobs of another", async () => {
    const inFirst = await completed(owner, first);
    const inSecond = await completed(owner, second);
    const narrowed = await readerToken(context(), owner, first);

    expect(await reach(narrowed, inSecond.id)).toEqual(hidden);
    const refused = await narrowed.call('GET', `/api/Download/${inSecond.id}/File`);
    expect(refused.json()).toMatchObject({ title: `Download with id ${inSecond.id} does not exist` });
    expect(await reach(narrowed, inFirst.id)).toEqual(reachable);
    const listed = (await narrowed.call('GET', '/api/Download?pageSize=100')).json<{
      items: { asset: { uid: string } }[];
      totalCount: number;
    }>();
    expect(new Set(listed.items.map((job) => job.asset.uid))).toEqual(new Set([first.assetUid]));
    expect(listed.totalCount).toBe(listed.items.length);
    // Its owner, signed in, still reaches both.
    expect(await reach(owner, inSecond.id)).toEqual(reachable);
  });

  it('stops serving a person their earlier file once their role is withdrawn, and again once it is back', async () => {
    const analyst = await buildPerson(context());
    await setRole(analyst, first, 'Reader');
    const job = await completed(analyst, first);
    expect(await reach(analyst, job.id)).toEqual(reachable);

    await setRole(analyst, first, null);
    expect(await reach(analyst, job.id)).toEqual(hidden);
    await setRole(analyst, first, 'Reader');
    expect(await reach(analyst, job.id)).toEqual(reachable);
  });

  it('answers an administrator who lost the role 403, as for every call of a collection they see but may not call', async () => {
    const admin = await buildPerson(context(), { canManageUsers: true });
    await setRole(admin, first, 'Reader');
    const job = await completed(admin, first);
    await setRole(admin, first, null);
    expect(await reach(admin, job.id)).toEqual({ status: 403, file: 403, listed: false });
  });

  it("stops serving a token's file once the token's owner loses the role", async () => {
    const analyst = await buildPerson(context());
    await setRole(analyst, first, 'Reader');
    const token = await readerToken(context(), analyst, first);
    const job = await completed(token, first);
    expect(await reach(token, job.id)).toEqual(reachable);

    await setRole(analyst, first, null);
    expect(await reach(token, job.id)).toEqual(hidden);
    expect(await reach(analyst, job.id)).toEqual(hidden);
  });

  it('answers a job past its expiry as Expired and serves no file, before the sweeper runs', async () => {
    const t = context();
    const job = await completed(owner, first);
    expect((await owner.call('GET', `/api/Download/${job.id}/File`)).statusCode).toBe(200);
    // Retention runs out: the job's expiry is moved back; the sweeper (once a minute) is not asked to run.
    await t.app.db
      .updateTable('download_jobs')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', job.id)
      .execute();

    const file = await owner.call('GET', `/api/Download/${job.id}/File`);
    expect(file.statusCode).toBe(404);
    expect(file.json()).toMatchObject({ title: `Download with id ${job.id} does not exist` });
    const status = (await owner.call('GET', `/api/Download/${job.id}/Status`)).json<DownloadJob>();
    expect(status).toMatchObject({ state: 'Expired', link: null });
    const listed = (await owner.call('GET', '/api/Download?pageSize=100')).json<{ items: DownloadJob[] }>();
    expect(listed.items.find((item) => item.id === job.id)).toMatchObject({ state: 'Expired', link: null });
  });
});
