import { expect, it } from 'vitest';
import { validationProblem } from '@datalab/contract/errors';
import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import type { Person } from '../../../test/support/builders.ts';
import { unique } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { world } from './test-world.ts';

// A parameter's pattern is RE2 syntax, matched in linear time: the pattern JavaScript's RegExp takes seconds on
// (`^(a+)+$` against a's and a !, each more a doubling it) answers a Reader at once and keeps no other call
// waiting; what RE2 cannot run is refused on save with the reason; strings have a default maximum length.

const tail = '; patterns are RE2 syntax, matched in linear time';
const BUDGET_MS = 100;

async function createAsset(editor: Person, collectionUid: string, connectionId: number, parameter: object) {
  const response = await editor.call('POST', '/api/SqlDataSource', {
    collectionUid,
    connectionId,
    name: unique('Patterned'),
    sql: 'select id, country from people where country = :code order by id',
    parameters: [{ name: 'code', type: 'string', required: true, ...parameter }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number; uid: string }>();
}

/** Both calls at once; how long each took to answer, in milliseconds. */
async function concurrently(first: () => Promise<unknown>, second: () => Promise<unknown>) {
  const started = performance.now();
  const timed = async (run: () => Promise<unknown>) => {
    const reply = await run();
    return { reply, ms: performance.now() - started };
  };
  return Promise.all([timed(first), timed(second)]);
}

describeApp('parameter patterns (RE2)', (ctx) => {
  it('answers a catastrophic pattern at once and keeps the other calls going', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const patterned = await createAsset(editor, collection.uid, connectionId, { pattern: '^(a+)+$' });
    const other = await createAsset(editor, collection.uid, connectionId, {});
    const attack = () => reader.call('GET', `/data/v1/${patterned.uid}?code=${'a'.repeat(40)}!`);
    const ordinary = () => reader.call('GET', `/data/v1/${other.uid}?code=DE`);
    // Loaded and compiled once (the first call of each); then measured, the best of three on a busy machine.
    expect((await reader.call('GET', `/data/v1/${patterned.uid}?code=aaa`)).statusCode).toBe(200);
    expect((await ordinary()).statusCode).toBe(200);
    const attempts = [];
    for (let attempt = 0; attempt < 3; attempt += 1) attempts.push(await concurrently(attack, ordinary));
    const [refused, answered] = attempts.reduce((best, next) =>
      Math.max(next[0].ms, next[1].ms) < Math.max(best[0].ms, best[1].ms) ? next : best,
    );
    const reply = refused.reply as Awaited<ReturnType<typeof attack>>;
    expect(reply.statusCode).toBe(400);
    expect(validationProblem.parse(reply.json()).errors).toEqual({
      code: ['code does not match the expected pattern'],
    });
    expect((answered.reply as Awaited<ReturnType<typeof ordinary>>).statusCode).toBe(200);
    expect(refused.ms, 'the pattern call').toBeLessThan(BUDGET_MS);
    expect(answered.ms, 'the other call, at the same time').toBeLessThan(BUDGET_MS);
  });

  it('refuses on save a pattern RE2 cannot run, naming why, and saves nothing', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const name = unique('Lookahead');
    const refused = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      name,
      sql: 'select id from people where country = :code',
      parameters: [{ name: 'code', type: 'string', pattern: '[A-Z]{2}(?=E)' }],
    });
    expect(refused.statusCode).toBe(400);
    expect(validationProblem.parse(refused.json()).errors).toEqual({
      'parameters.0.pattern': [`Pattern uses a feature that is not supported (lookahead)${tail}`],
    });
    const listed = await reader.call('GET', `/api/DataSource?collectionUid=${collection.uid}`);
    expect(listed.json<{ name: string }[]>().map((asset) => asset.name)).not.toContain(name);

    const asset = await createAsset(editor, collection.uid, connectionId, {});
    const added = await editor.call('POST', `/api/DataSource/${asset.uid}/Parameters`, {
      name: 'again',
      type: 'string',
      pattern: String.raw`(\w)\1`,
    });
    expect(added.statusCode).toBe(400);
    expect(validationProblem.parse(added.json()).errors).toEqual({
      pattern: [`Pattern uses a feature that is not supported (backreference \`\\1\`)${tail}`],
    });
  });

  it('gives string values a default maximum length, and says so in the OpenAPI document', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const asset = await createAsset(editor, collection.uid, connectionId, {});
    const long = await reader.call('POST', `/data/v1/${asset.uid}`, {
      code: 'D'.repeat(DEFAULT_STRING_MAX_LENGTH + 1),
    });
    expect(long.statusCode).toBe(400);
    expect(validationProblem.parse(long.json()).errors).toEqual({
      code: [`code must be at most ${DEFAULT_STRING_MAX_LENGTH} characters long`],
    });
    const fits = await reader.call('POST', `/data/v1/${asset.uid}`, { code: 'D'.repeat(DEFAULT_STRING_MAX_LENGTH) });
    expect(fits.statusCode).toBe(200);
    const patterned = await createAsset(editor, collection.uid, connectionId, { pattern: '[A-Z]{2}' });
    type Operation = { parameters: { name: string; schema: unknown }[] };
    const document = (await reader.call('GET', '/data/v1/openapi.json')).json<{
      paths: Record<string, { get: Operation }>;
    }>();
    const parameter = document.paths[`/data/v1/${patterned.uid}`]?.get.parameters.find((p) => p.name === 'code');
    expect(parameter?.schema).toEqual({
      type: 'string',
      maxLength: DEFAULT_STRING_MAX_LENGTH,
      pattern: '^(?:[A-Z]{2})$',
    });
  });

  it('keeps an asset whose stored pattern RE2 cannot run readable, and refuses its values saying why', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const asset = await createAsset(editor, collection.uid, connectionId, { pattern: '[A-Z]{2}' });
    // A pattern stored when patterns were JavaScript syntax: no save can write one any more.
    await ctx()
      .app.db.updateTable('parameters')
      .set({ definition: JSON.stringify({ name: 'code', type: 'string', required: true, pattern: '[A-Z]{2}(?=E)' }) })
      .where('data_source_id', '=', asset.id)
      .execute();
    const detail = await reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ parameters: [{ name: 'code', pattern: '[A-Z]{2}(?=E)' }] });
    const call = await reader.call('GET', `/data/v1/${asset.uid}?code=DE`);
    expect(call.statusCode).toBe(400);
    expect(validationProblem.parse(call.json()).errors).toEqual({
      code: [
        'code cannot be checked: its pattern uses a feature that is not supported (lookahead); an Editor must change ' +
          'the pattern (RE2 syntax)',
      ],
    });
  });
});
