import { beforeAll, expect, it } from 'vitest';
import type { Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { buildPlace, buildWorld, createToken, withToken, type Place, type TokenReply } from './test-world.ts';

// What a caller behind a personal access token reads of tokens: no more than its narrowing. It sees itself (its own
// status, expiry and roles) and the collection tokens of the collections it is Owner of; never its owner's other
// personal tokens, nor tokens of other collections or of deleted ones. Its owner, signed in, sees them all.

type Ids = { id: number }[];

describeEachStore('token reads through a narrowed personal access token', (context) => {
  let owner: Person;
  let first: Place;
  let second: Place;
  let tokens: Record<'ownerOfFirst' | 'readerOfFirst' | 'ofSecond' | 'first' | 'second' | 'orphan', TokenReply>;
  let secrets: { ownerOfFirst: string; readerOfFirst: string };

  const rolesOn = (place: Place, role: string) => [{ collectionUid: place.uid, role }];
  const call = (secret: string, url: string) => withToken(context(), secret, 'GET', url);
  const idsOf = async (secret: string, url: string) => {
    const response = await call(secret, url);
    expect(response.statusCode).toBe(200);
    const body = response.json<Ids | { items: Ids }>();
    return (Array.isArray(body) ? body : body.items).map((token) => token.id).sort((a, b) => a - b);
  };
  const sorted = (...list: TokenReply[]) => list.map((token) => token.id).sort((a, b) => a - b);

  beforeAll(async () => {
    const t = context();
    ({ owner, first, second } = await buildWorld(t));
    const doomed = await buildPlace(t, owner);
    const ownerOfFirst = await createToken(owner, { roles: rolesOn(first, 'Owner') });
    const readerOfFirst = await createToken(owner, { roles: rolesOn(first, 'Reader') });
    tokens = {
      ownerOfFirst,
      readerOfFirst,
      ofSecond: await createToken(owner, { roles: rolesOn(second, 'Owner') }),
      first: await createToken(owner, { kind: 'collection', collectionUid: first.uid }),
      second: await createToken(owner, { kind: 'collection', collectionUid: second.uid }),
      orphan: await createToken(owner, { kind: 'collection', collectionUid: doomed.uid }),
    };
    secrets = { ownerOfFirst: ownerOfFirst.secret, readerOfFirst: readerOfFirst.secret };
    expect((await owner.call('DELETE', `/api/DataSourceCollection?uid=${doomed.uid}`)).statusCode).toBe(200);
  });

  it("lists only itself and its collections' tokens, where its owner lists them all", async () => {
    expect(await idsOf(secrets.ownerOfFirst, '/api/Token/GetAll?pageSize=200')).toEqual(
      sorted(tokens.ownerOfFirst, tokens.first),
    );
    const total = await call(secrets.ownerOfFirst, '/api/Token/GetAll?pageSize=1');
    expect(total.json<{ totalCount: number }>().totalCount).toBe(2);
    expect(await idsOf(secrets.ownerOfFirst, '/api/Token/GetAllPersonalAccessTokens')).toEqual(
      sorted(tokens.ownerOfFirst),
    );
    // A Reader token of the same collection is no Owner there: only itself.
    expect(await idsOf(secrets.readerOfFirst, '/api/Token/GetAll?pageSize=200')).toEqual(sorted(tokens.readerOfFirst));
    const everything = await owner.call('GET', '/api/Token/GetAll?pageSize=200');
    expect(everything.json<{ items: Ids }>().items.map((token) => token.id)).toEqual(
      expect.arrayContaining(Object.values(tokens).map((token) => token.id)),
    );
  });

  it('answers 404 for every other token, one by one, as for a token that does not exist', async () => {
    for (const other of [tokens.readerOfFirst, tokens.ofSecond, tokens.second, tokens.orphan]) {
      const read = await call(secrets.ownerOfFirst, `/api/Token?id=${other.id}`);
      expect(read.statusCode).toBe(404);
      expect(read.json()).toMatchObject({ title: `Token with id ${other.id} does not exist` });
      expect((await call(secrets.ownerOfFirst, `/api/Token/${other.id}/UserDataRoles`)).statusCode).toBe(404);
    }
    for (const own of [tokens.ownerOfFirst, tokens.first]) {
      expect((await call(secrets.ownerOfFirst, `/api/Token?id=${own.id}`)).statusCode).toBe(200);
      expect((await call(secrets.ownerOfFirst, `/api/Token/${own.id}/UserDataRoles`)).statusCode).toBe(200);
    }
  });

  it("reads a collection's tokens only where it is Owner: hidden elsewhere, refused where it reads", async () => {
    const ofFirst = await idsOf(secrets.ownerOfFirst, `/api/Token/GetByCollection?collectionUid=${first.uid}`);
    expect(ofFirst).toEqual(sorted(tokens.first));
    const ofSecond = await call(secrets.ownerOfFirst, `/api/Token/GetByCollection?collectionUid=${second.uid}`);
    expect(ofSecond.statusCode).toBe(404);
    const asReader = await call(secrets.readerOfFirst, `/api/Token/GetByCollection?collectionUid=${first.uid}`);
    expect(asReader.statusCode).toBe(403);
  });
});
