import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_LENGTH, MAX_PATTERN_PROGRAM_SIZE, patternProblem } from '@datalab/contract/patterns';
import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import { parametersJsonSchema } from './openapi.ts';
import { parameterDefinitionSchema, storedParameterDefinitionSchema, type ParameterDefinitionInput } from './schema.ts';
import { validateParameters } from './values.ts';

// Patterns run on RE2 (re2js): ordinary patterns accept exactly what JavaScript's RegExp accepted (the oracle below),
// a catastrophic one answers at once, what RE2 cannot run is refused with the reason, and the work is bounded.

const def = (input: ParameterDefinitionInput) => parameterDefinitionSchema.parse(input);
const code = (pattern: string, extra: Partial<ParameterDefinitionInput> = {}) =>
  def({ name: 'code', type: 'string', pattern, ...extra });
const accepts = (definition: ReturnType<typeof def>, value: unknown) =>
  validateParameters([definition], { code: value }).ok;

const ordinary: [pattern: string, values: string[]][] = [
  ['[A-Z]{2}', ['FR', 'fr', 'FRA', 'F']],
  [String.raw`\d{4}-\d{2}-\d{2}`, ['2024-02-29', '2024-2-29', '20240229', '2024-02-29x']],
  [String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`, ['ada@example.com', 'ada@example', '@x.io', 'a b@c.de']],
  ['(foo|bar)baz?', ['foo', 'barba', 'barbaz', 'foobazz', 'baz']],
  ['a|bc', ['a', 'bc', 'abc', 'b']],
  ['colou?r', ['color', 'colour', 'colouur']],
  ['.*', ['anything at all', 'ünïcödé 😀', ' ']],
  ['.+x', ['x', 'ax', 'aax', 'xa']],
  ['[^,]+(,[^,]+)*', ['a', 'a,b,c', 'a,,b', ',a', 'a,']],
  [String.raw`\w+`, ['abc_123', 'ab-c', 'é']],
  [String.raw`\p{L}+`, ['héllo', 'Ωμέγα', 'abc1']],
  ['.', ['😀', 'é', 'ab']],
  ['[0-9]+([.][0-9]{1,2})?', ['10', '10.5', '10.55', '10.555', '.5']],
  ['(?:ab)*', ['ab', 'abab', 'aba', 'b']],
  [String.raw`\$\d+`, ['$5', '5', '$$5']],
  ['[a-c-]+', ['a-b', 'd']],
  ['(a+)+b', ['aab', 'aaaa']],
];

describe('parameter patterns on RE2', () => {
  it('accept and refuse ordinary values exactly as RegExp does (the oracle)', () => {
    for (const [pattern, values] of ordinary) {
      const oracle = new RegExp(`^(?:${pattern})$`, 'u');
      const definition = code(pattern);
      for (const value of values) expect(accepts(definition, value), `${pattern} on ${value}`).toBe(oracle.test(value));
    }
  });

  it('differs from RegExp only where RE2 defines a class otherwise (documented in docs/architecture.md)', () => {
    expect(accepts(code('a.b'), 'a\rb')).toBe(true);
    expect(new RegExp('^(?:a.b)$', 'u').test('a\rb')).toBe(false);
    expect(accepts(code(String.raw`a\sb`), 'a\vb')).toBe(false);
    expect(new RegExp(String.raw`^(?:a\sb)$`, 'u').test('a\vb')).toBe(true);
  });

  it('answers a catastrophic pattern at once, with the pattern message', () => {
    const definition = code('^(a+)+$');
    const started = performance.now();
    const result = validateParameters([definition], { code: `${'a'.repeat(DEFAULT_STRING_MAX_LENGTH - 1)}!` });
    expect(performance.now() - started).toBeLessThan(100);
    expect(result).toEqual({ ok: false, errors: { code: ['code does not match the expected pattern'] } });
  });

  it('refuses on save what RE2 cannot run, naming why', () => {
    const refusal = (pattern: string) => patternProblem(pattern);
    const tail = '; patterns are RE2 syntax, matched in linear time';
    expect(refusal('[A-Z]+(?=!)')).toBe(`Pattern uses a feature that is not supported (lookahead)${tail}`);
    expect(refusal('(?<!x)y')).toBe(`Pattern uses a feature that is not supported (negative lookbehind)${tail}`);
    expect(refusal(String.raw`(a)\1`)).toBe(
      `Pattern uses a feature that is not supported (backreference \`\\1\`)${tail}`,
    );
    expect(refusal(String.raw`caf\u00e9`)).toBe(
      `Pattern uses a feature that is not supported (the escape \`\\u\`; write \`\\x{…}\` instead)${tail}`,
    );
    expect(refusal('[a-')).toBe(`Pattern is not a valid regular expression (missing closing ]: \`[a-\`)${tail}`);
    expect(refusal('a{1001}')).toBe(
      `Pattern is not a valid regular expression (invalid repeat count: \`{1001}\`; counts go up to 1000)${tail}`,
    );
    expect(refusal('(?:(?:a|b|ab|ba)?){1000}')).toBe(
      `Pattern is too complex (it compiles to 8002 instructions, at most ${MAX_PATTERN_PROGRAM_SIZE})${tail}`,
    );
    expect(refusal('a'.repeat(MAX_PATTERN_LENGTH + 1))).toBe(
      `Pattern must be at most ${MAX_PATTERN_LENGTH} characters long`,
    );
    expect(refusal('a'.repeat(MAX_PATTERN_LENGTH))).toBeUndefined();
    const issues = parameterDefinitionSchema.safeParse({ name: 'c', type: 'string', pattern: 'a(?!b)' }).error?.issues;
    expect(issues?.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['pattern', `Pattern uses a feature that is not supported (negative lookahead)${tail}`],
    ]);
  });

  it('refuses the values of a stored pattern RE2 cannot run, saying why and who can fix it', () => {
    const stored = storedParameterDefinitionSchema.parse({ name: 'code', type: 'string', pattern: '[A-Z]+(?=!)' });
    expect(validateParameters([stored], { code: 'AB' })).toEqual({
      ok: false,
      errors: {
        code: [
          'code cannot be checked: its pattern uses a feature that is not supported (lookahead); an Editor must ' +
            'change the pattern (RE2 syntax)',
        ],
      },
    });
  });

  it('gives strings a default maximum length, and spends no pattern work on a value that is too long', () => {
    const open = def({ name: 'code', type: 'string' });
    expect(accepts(open, 'é'.repeat(DEFAULT_STRING_MAX_LENGTH))).toBe(true);
    expect(validateParameters([open], { code: 'a'.repeat(DEFAULT_STRING_MAX_LENGTH + 1) })).toEqual({
      ok: false,
      errors: { code: [`code must be at most ${DEFAULT_STRING_MAX_LENGTH} characters long`] },
    });
    expect(accepts(def({ name: 'code', type: 'string', max: 10_000 }), 'a'.repeat(10_000))).toBe(true);
    const patterned = code('a+', { max: 3 });
    expect(validateParameters([patterned], { code: 'aaaa' })).toEqual({
      ok: false,
      errors: { code: ['code must be at most 3 characters long'] },
    });
  });

  it('bounds the pattern work of one call: a long list against a complex pattern is refused at once', () => {
    // About 900 instructions: close to the most complex pattern allowed.
    const complex = code('(?:[a-z]?){450}[a-z]*', { list: true });
    const items = Array.from({ length: 40 }, () => 'a'.repeat(DEFAULT_STRING_MAX_LENGTH));
    const started = performance.now();
    const result = validateParameters([complex], { code: items });
    expect(performance.now() - started).toBeLessThan(500);
    expect(result).toEqual({
      ok: false,
      errors: {
        code: ['code has too much text to check against its pattern in one call; send fewer or shorter values'],
      },
    });
    // The same list against a small pattern is within the budget, and so is a short list against the complex one.
    expect(accepts(code('[a-z]+', { list: true }), items)).toBe(true);
    expect(accepts(complex, ['a'.repeat(400), 'b'.repeat(400)])).toBe(true);
  });

  it('renders the pattern for JSON Schema when it is also ECMA-262, as x-re2-pattern otherwise, with the length', () => {
    const schema = (input: ParameterDefinitionInput) =>
      (parametersJsonSchema([def(input)])['properties'] as Record<string, Record<string, unknown>>)['p'];
    expect(schema({ name: 'p', type: 'string', pattern: '[A-Z]{2}' })).toEqual({
      type: 'string',
      maxLength: DEFAULT_STRING_MAX_LENGTH,
      pattern: '^(?:[A-Z]{2})$',
    });
    expect(schema({ name: 'p', type: 'string', max: 8, pattern: '(?i)[a-z]+' })).toEqual({
      type: 'string',
      maxLength: 8,
      'x-re2-pattern': '^(?:(?i)[a-z]+)$',
    });
    // What a validator does with every `pattern` (compile it as ECMA-262) works on whatever the parameter holds.
    for (const pattern of [
      '[A-Z]{2}',
      String.raw`\pL+`,
      String.raw`(?P<y>\d{4})`,
      String.raw`\x{41}`,
      String.raw`a\z`,
    ]) {
      const rendered = schema({ name: 'p', type: 'string', pattern });
      const anchored = `^(?:${pattern})$`;
      expect([rendered?.['pattern'], rendered?.['x-re2-pattern']]).toContain(anchored);
      if (rendered?.['pattern'] !== undefined) expect(() => new RegExp(String(rendered['pattern']), 'u')).not.toThrow();
    }
  });
});
