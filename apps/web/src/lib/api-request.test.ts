import { describe, expect, it } from 'vitest';
import { buildBody, buildPath, buildQuery, joinUrl } from './api-request.ts';

// product §3: outgoing dates are reduced to a UTC date, wherever they are in the request.

describe('building a request', () => {
  it('reduces dates in the body to their UTC date, however deeply nested', () => {
    const body = {
      from: new Date('2026-06-30T23:30:00-02:00'),
      ranges: [{ to: new Date('2026-01-01T00:30:00+01:00') }],
      note: 'x',
    };
    expect(JSON.parse(buildBody(body) ?? 'null')).toEqual({
      from: '2026-07-01',
      ranges: [{ to: '2025-12-31' }],
      note: 'x',
    });
    expect(buildBody(undefined)).toBeUndefined();
  });

  it('writes the query with repeated keys for lists, UTC dates, and without empty values', () => {
    const query = {
      day: new Date('2026-03-01T23:30:00-05:00'),
      ids: [1, 2],
      search: 'a b',
      page: undefined,
      type: null,
    };
    expect(buildQuery(query)).toBe('?day=2026-03-02&ids=1&ids=2&search=a+b');
    expect(buildQuery({})).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });

  it('fills and encodes path parameters', () => {
    expect(buildPath('/api/DataSource/:id/Transformations/:tid', { id: 4, tid: 'a/b' })).toBe(
      '/api/DataSource/4/Transformations/a%2Fb',
    );
    expect(() => buildPath('/api/DataSource/:id', {})).toThrow('Missing path parameter id');
  });

  it('joins the base URL without doubling slashes', () => {
    expect(joinUrl('http://lab.example/', '/api/Token')).toBe('http://lab.example/api/Token');
    expect(joinUrl('', '/api/Token')).toBe('/api/Token');
  });
});
