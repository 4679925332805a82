import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parameterDefinitionSchema, parameterDefinitionsSchema, storedParameterSchema } from './parameters.ts';
import { ruleSchema, ruleTypes, storedRuleSchema, transformationsSchema } from './transformations.ts';

// The parameter-definition and rule schemas the server, the engine and the portal share: each refusal with its
// product §5 message at its path, the stored forms keeping every check (but the pattern's compilation: a stored pattern
// RE2 cannot run is refused at the call, not at reading), and JSON Schema (what /api/docs shows) typed.

const failures = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
};

describe('parameter definitions', () => {
  it('refuse an unknown type, a duplicate name and a dependency on no parameter, each with its message', () => {
    expect(failures(parameterDefinitionSchema, { name: 'a', type: 'money' })).toEqual([
      ['type', 'Unsupported type money'],
    ]);
    expect(
      failures(parameterDefinitionsSchema, [
        { name: 'a', type: 'string' },
        { name: 'a', type: 'integer' },
      ]),
    ).toEqual([['1.name', 'Parameter with name a already exists']]);
    const dependent = {
      name: 'country',
      type: 'string',
      allowedValues: { kind: 'dataSource', dataSourceId: 3, valueColumn: 'c', labelColumn: 'n', dependsOn: ['x'] },
    };
    expect(failures(parameterDefinitionsSchema, [dependent])).toEqual([
      ['0.allowedValues.dependsOn', 'Invalid option'],
    ]);
    expect(failures(parameterDefinitionSchema, { name: '1a', type: 'string', pattern: '(' })).toEqual([
      ['name', 'Invalid option'],
      [
        'pattern',
        'Pattern is not a valid regular expression (missing closing ): `(`); patterns are RE2 syntax, matched in linear time',
      ],
    ]);
  });

  it('fill their defaults, and keep id and position when stored', () => {
    expect(parameterDefinitionSchema.parse({ name: 'a', type: 'date' })).toEqual({
      name: 'a',
      type: 'date',
      list: false,
      required: false,
    });
    expect(storedParameterSchema.parse({ id: 4, position: 1, name: 'a', type: 'date' })).toMatchObject({
      id: 4,
      position: 1,
    });
    expect(failures(storedParameterSchema, { id: 4, position: 1, name: 'a', type: 'money' })).toEqual([
      ['type', 'Unsupported type money'],
    ]);
    expect(
      storedParameterSchema.parse({ id: 4, position: 1, name: 'a', type: 'string', pattern: 'a(?=b)' }),
    ).toMatchObject({ pattern: 'a(?=b)' });
  });
});

describe('transformation rules', () => {
  it('refuse each malformed kind with its message', () => {
    expect(failures(ruleSchema, { type: 'select', columns: [] })).toEqual([
      ['columns', 'At least one column is required'],
    ]);
    expect(failures(ruleSchema, { type: 'sort', by: [] })).toEqual([['by', 'At least one column is required']]);
    expect(failures(ruleSchema, { type: 'filter', column: 'a', op: 'eq' })).toEqual([['value', 'value is required']]);
    expect(failures(ruleSchema, { type: 'filter', column: 'a', op: 'in', value: 'x' })).toEqual([
      ['value', 'Invalid option'],
    ]);
    expect(failures(ruleSchema, { type: 'computed', name: 'b', expression: 'nope(a)' })).toEqual([
      ['expression', 'Unknown function nope in the expression'],
    ]);
    expect(failures(ruleSchema, { type: 'mask', column: 'a', mode: 'blur' }).map(([path]) => path)).toEqual(['mode']);
    expect(failures(ruleSchema, { type: 'explode' }).length).toBe(1);
    expect(failures(transformationsSchema, [{ rules: [{ type: 'limit', count: -1 }] }])[0]?.[0]).toBe(
      '0.rules.0.count',
    );
  });

  it('keep every check of their kind when stored with id and position', () => {
    expect(storedRuleSchema.parse({ id: 1, position: 0, type: 'mask', column: 'email', mode: 'full' })).toEqual({
      id: 1,
      position: 0,
      type: 'mask',
      column: 'email',
      mode: 'full',
      keepFirst: 0,
      keepLast: 0,
      maskChar: '*',
      salt: '',
    });
    expect(failures(storedRuleSchema, { id: 1, position: 0, type: 'filter', column: 'a', op: 'eq' })).toEqual([
      ['value', 'value is required'],
    ]);
    expect(failures(storedRuleSchema, { type: 'limit', count: 1 }).map(([path]) => path)).toEqual(['id', 'position']);
    expect(ruleTypes).toEqual(['select', 'rename', 'mask', 'filter', 'sort', 'cast', 'format', 'computed', 'limit']);
  });
});

describe('as JSON Schema (the OpenAPI documents)', () => {
  it('types a definition and each rule kind rather than an open object', () => {
    const definition = z.toJSONSchema(parameterDefinitionSchema, { io: 'input' }) as {
      properties: Record<string, { enum?: unknown[] }>;
      required: string[];
    };
    expect(definition.properties['type']?.enum).toEqual([
      'string',
      'integer',
      'decimal',
      'boolean',
      'date',
      'date-time',
    ]);
    expect(definition.required).toEqual(['name', 'type']);
    const rule = JSON.stringify(z.toJSONSchema(ruleSchema, { io: 'input' }));
    for (const type of ruleTypes) expect(rule).toContain(`"const":"${type}"`);
  });
});
