import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { validationProblem } from '@datalab/contract/errors';
import { parameterTypes } from '@datalab/contract/parameters';
import { ruleTypes } from '@datalab/contract/transformations';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { createPeople, world } from './test-world.ts';

// The calls that carry parameter definitions and rules validate them with the contract's own schemas (the ones the
// engine runs): a bad one is refused by the request's validation, with the other fields' errors and product §5's
// messages, and /api/docs shows the definitions and rules typed. The behaviour does not depend on the store.

const maskDefaults = { keepFirst: 0, keepLast: 0, maskChar: '*', salt: '' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp('sqlite');
});
afterAll(async () => {
  await t?.close();
});

type Schema = { properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; enum?: unknown[] };
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

async function operation(path: string, method: string): Promise<Operation> {
  const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  const found = document.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
}
const bodyOf = (op: Operation) => op.requestBody?.content['application/json']?.schema;
const replyOf = (op: Operation, status: string) => op.responses[status]?.content?.['application/json']?.schema;
const kindsOf = (union: Schema | undefined) => (union?.oneOf ?? []).map((kind) => kind.properties?.['type']?.enum?.[0]);

describe('parameter definitions and rules in the contract', () => {
  it('refuses a bad definition or rule in the request validation, beside the other fields, with product §5 messages', async () => {
    const { editor, collection, connectionId } = await world(t);
    const created = await editor.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId,
      sql: 'select 1',
      parameters: [{ name: 'a', type: 'money' }],
      transformations: [{ rules: [{ type: 'select', columns: [] }] }],
    });
    expect(created.statusCode).toBe(400);
    expect(validationProblem.parse(created.json()).errors).toEqual({
      name: ['Name is required'],
      'parameters.0.type': ['Unsupported type money'],
      'transformations.0.rules.0.columns': ['At least one column is required'],
    });

    const asset = await createPeople(editor, collection.uid, connectionId);
    const parameter = await editor.call('POST', `/api/DataSource/${asset.uid}/Parameters`, {
      name: 'since',
      type: 'money',
    });
    expect(validationProblem.parse(parameter.json()).errors).toEqual({ type: ['Unsupported type money'] });
    const duplicate = await editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, {
      parameters: [
        { name: 'country', type: 'string' },
        { name: 'country', type: 'string', list: true },
      ],
    });
    expect(validationProblem.parse(duplicate.json()).errors).toEqual({
      'parameters.1.name': ['Parameter with name country already exists'],
    });
    const rulesUrl = `/api/DataSource/${asset.uid}/Transformations/${asset.transformations[0]?.id}/TransformationRules`;
    const rule = await editor.call('POST', rulesUrl, { type: 'computed', name: 'b', expression: 'nope(email)' });
    expect(validationProblem.parse(rule.json()).errors).toEqual({
      expression: ['Unknown function nope in the expression'],
    });

    const stored = dataSourceDetail.parse((await editor.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json());
    expect(stored.version).toBe(1);
    expect(stored.parameters.map((p) => p.name)).toEqual(['country']);
    expect(stored.transformations[0]?.rules).toEqual([
      { id: expect.any(Number), position: 0, type: 'mask', column: 'email', mode: 'full', ...maskDefaults },
    ]);
  });

  it('shows typed definitions and rules in /api/docs, in bodies and replies, rather than open objects', async () => {
    const addParameter = await operation('/api/DataSource/{id}/Parameters', 'post');
    expect(bodyOf(addParameter)?.properties?.['type']?.enum).toEqual([...parameterTypes]);
    const stored = replyOf(addParameter, '201')?.items;
    expect(Object.keys(stored?.properties ?? {})).toEqual(expect.arrayContaining(['id', 'position', 'name', 'type']));
    expect(stored?.properties?.['type']?.enum).toEqual([...parameterTypes]);

    const create = bodyOf(await operation('/api/SqlDataSource', 'post'));
    expect(create?.properties?.['parameters']?.items?.properties?.['type']?.enum).toEqual([...parameterTypes]);
    expect(kindsOf(create?.properties?.['transformations']?.items?.properties?.['rules']?.items)).toEqual(ruleTypes);

    const addRule = await operation('/api/DataSource/{id}/Transformations/{tid}/TransformationRules', 'post');
    expect(kindsOf(bodyOf(addRule))).toEqual(ruleTypes);
    const mask = bodyOf(addRule)?.oneOf?.find((kind) => kind.properties?.['type']?.enum?.[0] === 'mask');
    expect(mask?.properties?.['mode']?.enum).toEqual(['full', 'partial', 'hash']);

    const detail = replyOf(await operation('/api/DataSource/GetByUid/{uid}', 'get'), '200');
    expect(detail?.properties?.['parameters']?.items?.properties?.['type']?.enum).toEqual([...parameterTypes]);
    const storedRules = detail?.properties?.['transformations']?.items?.properties?.['rules']?.items;
    expect(kindsOf(storedRules)).toEqual(ruleTypes);
    expect(storedRules?.oneOf?.every((kind) => kind.properties?.['id'] && kind.properties['position'])).toBe(true);
  });
});
