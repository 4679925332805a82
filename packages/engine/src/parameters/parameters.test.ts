import { describe, expect, it } from 'vitest';
import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import { openApiQueryParameters, parametersJsonSchema } from './openapi.ts';
import { collectOptions, stableValuesKey } from './options.ts';
import { type ParameterDefinitionInput, parameterDefinitionSchema, parameterDefinitionsSchema } from './schema.ts';
import { validateParameters } from './values.ts';

const defs = (...inputs: ParameterDefinitionInput[]) => parameterDefinitionsSchema.parse(inputs);

describe('parameter definitions', () => {
  it('refuses an unknown type with the product template', () => {
    const result = parameterDefinitionSchema.safeParse({ name: 'a', type: 'money' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Unsupported type money');
  });

  it('refuses duplicate names and a dependency on a missing parameter', () => {
    const result = parameterDefinitionsSchema.safeParse([
      { name: 'a', type: 'string' },
      { name: 'a', type: 'string' },
      {
        name: 'c',
        type: 'string',
        allowedValues: { kind: 'dataSource', dataSourceId: 7, valueColumn: 'v', labelColumn: 'l', dependsOn: ['zz'] },
      },
    ]);
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Parameter with name a already exists',
      'Invalid option',
    ]);
  });
});

describe('validateParameters', () => {
  it('types query-string values and keeps decimals exact', () => {
    const result = validateParameters(
      defs(
        { name: 'n', type: 'integer' },
        { name: 'd', type: 'decimal' },
        { name: 'b', type: 'boolean' },
        { name: 'day', type: 'date' },
        { name: 'at', type: 'date-time' },
        { name: 's', type: 'string' },
      ),
      {
        n: '42',
        d: '12345678901234567890.123456789',
        b: 'true',
        day: '2024-02-29',
        at: '2024-02-29T10:00:00+01:00',
        s: "'; DROP TABLE x; --",
      },
    );
    expect(result).toEqual({
      ok: true,
      values: {
        n: 42,
        d: '12345678901234567890.123456789',
        b: true,
        day: '2024-02-29',
        at: '2024-02-29T10:00:00+01:00',
        s: "'; DROP TABLE x; --",
      },
    });
  });

  it('accepts lists as repeated keys, comma lists and JSON arrays', () => {
    const list = defs({ name: 'ids', type: 'integer', list: true });
    expect(validateParameters(list, { ids: ['1', '2'] })).toEqual({ ok: true, values: { ids: [1, 2] } });
    expect(validateParameters(list, { ids: '1, 2,3' })).toEqual({ ok: true, values: { ids: [1, 2, 3] } });
    expect(validateParameters(list, { ids: [4, 5] })).toEqual({ ok: true, values: { ids: [4, 5] } });
    expect(validateParameters(list, { ids: ['1', 'x'] })).toEqual({
      ok: false,
      errors: { ids: ['ids must be an integer'] },
    });
  });

  it('reports required, wrong type, range, pattern and option errors with the templates', () => {
    const result = validateParameters(
      defs(
        { name: 'region', label: 'Region', type: 'string', required: true },
        { name: 'n', type: 'integer', min: 1, max: 10 },
        { name: 'd', type: 'decimal', max: '0.5' },
        { name: 'day', type: 'date', min: '2024-01-01' },
        { name: 'code', type: 'string', pattern: '[A-Z]{2}' },
        { name: 'size', type: 'string', allowedValues: { kind: 'fixed', options: [{ value: 'S' }, { value: 'M' }] } },
        { name: 'flag', type: 'boolean' },
        { name: 'bad', type: 'date' },
      ),
      { n: '11', d: '0.50000001', day: '2023-12-31', code: 'abc', size: 'XL', flag: 'maybe', bad: '2023-02-30' },
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        region: ['Region is required'],
        n: ['n must be at most 10'],
        d: ['d must be at most 0.5'],
        day: ['day must be at least 2024-01-01'],
        code: ['code does not match the expected pattern'],
        size: ['Invalid option: XL is not one of the allowed values of size: S, M'],
        flag: ['flag must be true or false'],
        bad: ['bad must be a date (YYYY-MM-DD)'],
      },
    });
  });

  it('uses defaults, and options fetched from a parameter data source', () => {
    const list = defs(
      { name: 'n', type: 'integer', default: 5 },
      {
        name: 'country',
        type: 'string',
        allowedValues: {
          kind: 'dataSource',
          dataSourceId: 'countries',
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: [],
        },
      },
    );
    expect(validateParameters(list, { country: 'FR' }, { options: { country: ['FR', 'DE'] } })).toEqual({
      ok: true,
      values: { n: 5, country: 'FR' },
    });
    expect(validateParameters(list, { country: 'US' }, { options: { country: ['FR', 'DE'] } })).toEqual({
      ok: false,
      errors: { country: ['Invalid option: US is not one of the allowed values of country: FR, DE'] },
    });
  });

  it('lists the allowed values in a refusal: with labels when fixed, the first ten and where the rest are when many', () => {
    const sizes = defs({
      name: 'size',
      label: 'Size',
      type: 'string',
      list: true,
      allowedValues: { kind: 'fixed', options: [{ value: 'S', label: 'Small' }, { value: 'M' }] },
    });
    expect(validateParameters(sizes, { size: ['S', 'XL'] })).toEqual({
      ok: false,
      errors: { size: ['Invalid option: XL is not one of the allowed values of Size: S (Small), M'] },
    });
    const codes = Array.from({ length: 12 }, (_, i) => `C${i + 1}`);
    const many = defs({
      name: 'code',
      type: 'string',
      allowedValues: { kind: 'dataSource', dataSourceId: 4, valueColumn: 'c', labelColumn: 'c', dependsOn: [] },
    });
    const moreAt = { code: 'GET /api/DataSource/ParameterData/7' };
    expect(validateParameters(many, { code: 'X' }, { options: { code: codes }, moreAt })).toEqual({
      ok: false,
      errors: {
        code: [
          'Invalid option: X is not one of the allowed values of code (12; the first 10: C1, C2, C3, C4, C5, C6, C7, ' +
            'C8, C9, C10, …); GET /api/DataSource/ParameterData/7 lists them all',
        ],
      },
    });
  });

  it('refuses floats for integers and a list for a single value', () => {
    const list = defs({ name: 'n', type: 'integer' });
    expect(validateParameters(list, { n: 1.5 })).toMatchObject({ ok: false });
    expect(validateParameters(list, { n: ['1', '2'] })).toMatchObject({ ok: false });
    expect(validateParameters(defs({ name: 'at', type: 'date-time' }), { at: '2024-01-01T10:00:00' })).toMatchObject({
      ok: false,
    });
  });
});

describe('OpenAPI rendering', () => {
  it('renders typed query parameters and a body schema', () => {
    const list = defs(
      { name: 'ids', type: 'integer', list: true, required: true, description: 'Order ids' },
      { name: 'd', type: 'decimal' },
      { name: 'size', type: 'string', allowedValues: { kind: 'fixed', options: [{ value: 'S' }] } },
    );
    expect(openApiQueryParameters(list)[0]).toEqual({
      name: 'ids',
      in: 'query',
      required: true,
      description: 'Order ids',
      schema: { type: 'array', items: { type: 'integer' }, description: 'Order ids' },
      style: 'form',
      explode: true,
    });
    const body = parametersJsonSchema(list);
    expect(body['required']).toEqual(['ids']);
    expect((body['properties'] as Record<string, unknown>)['size']).toEqual({
      type: 'string',
      maxLength: DEFAULT_STRING_MAX_LENGTH,
      enum: ['S'],
    });
    expect((body['properties'] as Record<string, Record<string, unknown>>)['d']?.['format']).toBe('decimal');
  });
});

describe('options and keys', () => {
  it('collects distinct value/label pairs up to a limit', async () => {
    async function* rows() {
      yield { code: 'FR', name: 'France' };
      yield { code: 'FR', name: 'France again' };
      yield { code: 'DE', name: null };
      yield { code: 'IT', name: 'Italy' };
    }
    expect(await collectOptions(rows(), { valueColumn: 'code', labelColumn: 'name' }, 2)).toEqual([
      { value: 'FR', label: 'France' },
      { value: 'DE', label: 'DE' },
    ]);
  });

  it('gives the same key whatever the order of the values', () => {
    expect(stableValuesKey({ b: [1, 2], a: '1.5' })).toBe(stableValuesKey({ a: '1.5', b: [1, 2] }));
    expect(stableValuesKey({ a: '1.5' })).not.toBe(stableValuesKey({ a: '1.50' }));
  });
});
