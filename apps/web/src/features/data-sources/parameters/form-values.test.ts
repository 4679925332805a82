import { describe, expect, it } from 'vitest';
import { storedParameterSchema } from '@datalab/contract/parameters';
import type { FormParameter } from './definition.ts';
import { toIsoDateTime, valuesFromSearch, valuesToCall, valuesToSearch } from './form-values.ts';

const define = (input: Record<string, unknown>): FormParameter =>
  storedParameterSchema.parse({ id: 1, position: 0, ...input });

const parameters = [
  define({ name: 'region', type: 'integer', required: true }),
  define({ name: 'country', type: 'string', list: true }),
  define({ name: 'active', type: 'boolean', default: true }),
  define({ name: 'since', type: 'date-time' }),
  define({ name: 'note', type: 'string', default: 'x' }),
];

describe('parameter values', () => {
  it('round-trip through the URL, lists as repeated keys, defaults when absent', () => {
    const values = valuesFromSearch(parameters, new URLSearchParams('region=3&country=FR&country=DE&active=false'));
    expect(values).toEqual({ region: '3', country: ['FR', 'DE'], active: false, since: '', note: 'x' });
    expect(valuesToSearch(parameters, values).toString()).toBe('region=3&country=FR&country=DE&active=false&note=x');
  });

  it('leave empty values out of the call and send date-times as ISO 8601 with an offset', () => {
    const body = valuesToCall(parameters, {
      region: '3',
      country: [],
      active: true,
      since: '2026-03-01T09:30',
      note: '',
    });
    expect(body).toEqual({ region: '3', active: true, since: new Date('2026-03-01T09:30').toISOString() });
    expect(toIsoDateTime('2026-03-01T09:30')).toMatch(/^2026-0[23]-\d{2}T\d{2}:30:00\.000Z$/);
  });
});
