import { describe, expect, it } from 'vitest';
import { detectTemplateParameters } from './template-parameters.ts';

const sources = (over: Partial<Parameters<typeof detectTemplateParameters>[0]>) => ({
  path: '',
  query: [],
  headers: [],
  body: '',
  ...over,
});

describe('detectTemplateParameters', () => {
  it('finds each {name} once, in the order path, query, headers, body', () => {
    const found = detectTemplateParameters(
      sources({
        path: '/countries/{region}/{code}',
        query: ['{since}', 'x-{region}'],
        headers: ['Bearer {tenant}'],
        body: '{"filter": {"country": "{code}", "tags": ["{tag}"]}, "n": 3}',
      }),
    );
    expect(found).toEqual(['region', 'code', 'since', 'tenant', 'tag']);
  });

  it('skips what is not a placeholder name and reads a body that is not JSON yet as text', () => {
    expect(detectTemplateParameters(sources({ path: '/a/{1x}/{}/{ok_1}' }))).toEqual(['ok_1']);
    expect(detectTemplateParameters(sources({ body: '{"a": "{first}", ' }))).toEqual(['first']);
    // JSON keys are not values: the engine replaces placeholders in values only.
    expect(detectTemplateParameters(sources({ body: '{"{key}": 1}' }))).toEqual([]);
  });
});
