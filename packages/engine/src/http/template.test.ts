import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { Redactor, secretMask } from './exchange.ts';
import { inferColumns, linkNext, rowsAt, shapeRow } from './rows.ts';
import { buildRequest, detectTemplateParameters, formEncode, parseHttpRequest } from './template.ts';

// Building the upstream request from a definition and typed values: values can never change the host or climb the
// path; body values are JSON values; header values cannot add a header. Also the rows path, column inference, the
// Link header and the exchange redactor.

const base = new URL('https://api.example.com/v1');

function build(path: string, values: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return buildRequest(base, {}, parseHttpRequest({ path, ...extra }), values);
}

function failure(work: () => unknown): EngineError {
  try {
    work();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('path templates', () => {
  it('percent-encodes each value so it stays one path segment on the same host', () => {
    const cases: Record<string, string> = {
      'x?admin=1': '/v1/orders/x%3Fadmin%3D1',
      'x#frag': '/v1/orders/x%23frag',
      'user@evil.com': '/v1/orders/user%40evil.com',
      '%2e%2e': '/v1/orders/%252e%252e',
      '%2F': '/v1/orders/%252F',
      '..%2fadmin': '/v1/orders/..%252fadmin',
      '//evil.com': '/v1/orders/%2F%2Fevil.com',
      'évian 1': '/v1/orders/%C3%A9vian%201',
    };
    for (const [value, path] of Object.entries(cases)) {
      const { url } = build('/orders/{id}', { id: value });
      expect(url.host).toBe('api.example.com');
      expect(url.pathname).toBe(path);
      expect(url.search + url.hash).toBe('');
    }
  });

  it('refuses values that would climb the path: . and .., alone or between slashes', () => {
    for (const value of ['..', '.', 'a/../../admin', '../x', 'x/..', '..\\x']) {
      const error = failure(() => build('/orders/{id}', { id: value }));
      expect(error.code).toBe('INVALID_PARAMETERS');
      expect(error.errors).toEqual({ id: ['id cannot be . or .. in the path'] });
    }
  });

  it('refuses an empty value in the path and joins list values', () => {
    expect(failure(() => build('/orders/{id}', { id: null })).errors).toEqual({ id: ['id is required'] });
    expect(failure(() => build('/orders/{id}', { id: '' })).errors).toEqual({ id: ['id is required'] });
    expect(build('/orders/{ids}', { ids: ['a b', 'c/d'] }).url.pathname).toBe('/v1/orders/a%20b,c%2Fd');
  });

  it('refuses a template path that leaves the base URL', () => {
    expect(failure(() => build('/../admin', {})).code).toBe('TARGET_REFUSED');
    expect(failure(() => build('/%2e%2e/admin', {})).code).toBe('TARGET_REFUSED');
    expect(() => parseHttpRequest({ path: 'https://evil.com/x' })).toThrow(/relative/);
    expect(() => parseHttpRequest({ path: '//evil.com/x' })).toThrow(/relative/);
    expect(() => parseHttpRequest({ path: '/x#y' })).toThrow(/#/);
  });

  it('keeps the base query and puts template query values as text', () => {
    const built = buildRequest(
      new URL('https://api.example.com/v1?format=json'),
      {},
      parseHttpRequest({
        path: '/search?q={q}&fixed=1',
        query: { region: '{region}', tag: '{tags}', note: 'n-{q}', gone: '{missing}' },
      }),
      { q: 'a&b=c#d', region: 'EU', tags: ['x', 'y'], missing: null },
    );
    expect(built.url.host).toBe('api.example.com');
    expect(built.url.pathname).toBe('/v1/search');
    expect([...built.url.searchParams]).toEqual([
      ['format', 'json'],
      ['q', 'a&b=c#d'],
      ['fixed', '1'],
      ['region', 'EU'],
      ['tag', 'x'],
      ['tag', 'y'],
      ['note', 'n-a&b=c#d'],
    ]);
    // Written as a form's query, once: every reserved character of a value escaped.
    expect(built.url.search).toBe('?format=json&q=a%26b%3Dc%23d&fixed=1&region=EU&tag=x&tag=y&note=n-a%26b%3Dc%23d');
    // A base query alone is kept as it is written.
    const plain = buildRequest(new URL('https://a.example/v1?a%20b=c+d&e'), {}, parseHttpRequest({ path: '/p' }), {});
    expect(plain.url.href).toBe('https://a.example/v1/p?a%20b=c+d&e');
  });

  it('writes query text exactly as URLSearchParams does, whatever the characters', () => {
    const alphabet = [...'aZ09*-._ !\'()~%+&=#?/:;@[]{}"|<>^`$,\u0000\u001f\u007f', 'é', '€', '😀', '\ud800', '\udfff'];
    const samples = ['', 'plain', 'a b', "!'()~", '%20', '+'];
    for (let index = 0; index < 5_000; index += 1) {
      const length = Math.floor(Math.random() * 8);
      samples.push(Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join(''));
    }
    for (const text of samples) {
      expect(formEncode(text), JSON.stringify(text)).toBe(new URLSearchParams([['k', text]]).toString().slice(2));
    }
  });
});

describe('headers and body', () => {
  it('puts values in header templates as text and refuses line breaks', () => {
    const definition = parseHttpRequest({ headers: { 'X-Region': 'r-{region}' } });
    const built = buildRequest(base, { 'X-Default': '1', 'x-region': 'default' }, definition, { region: 'EU' });
    expect(built.headers).toMatchObject({ accept: 'application/json', 'x-default': '1', 'x-region': 'r-EU' });
    const error = failure(() => buildRequest(base, {}, definition, { region: 'EU\r\nX-Admin: 1' }));
    expect(error.errors).toEqual({ region: ['region cannot contain line breaks in a header'] });
    expect(() => parseHttpRequest({ headers: { Host: 'evil.com' } })).toThrow(/set by the connector/);
    expect(() => parseHttpRequest({ headers: { 'Bad Name': 'x' } })).toThrow(/header name/);
  });

  it('substitutes body values as JSON values, never by splicing text', () => {
    const definition = parseHttpRequest({
      method: 'POST',
      body: {
        filter: { region: '{region}', ids: '{ids}', limit: '{limit}' },
        label: 'r={region}',
        fixed: [1, '{flag}'],
      },
    });
    const built = buildRequest(base, {}, definition, {
      region: '", "admin": true, "x": "',
      ids: [1, 2],
      limit: 10,
      flag: false,
    });
    expect(JSON.parse(built.body ?? '')).toEqual({
      filter: { region: '", "admin": true, "x": "', ids: [1, 2], limit: 10 },
      label: 'r=", "admin": true, "x": "',
      fixed: [1, false],
    });
    expect(built.headers['content-type']).toBe('application/json');
    expect(() => parseHttpRequest({ method: 'GET', body: {} })).toThrow(/no body/);
  });

  it('detects parameters in path, query, headers and body, in order', () => {
    expect(
      detectTemplateParameters({
        path: '/a/{one}/b/{two}?x={three}',
        query: { y: '{four}', z: '{one}' },
        headers: { h: '{five}' },
        body: { nested: ['{six}', { k: 'v-{seven}' }] },
      }),
    ).toEqual(['one', 'two', 'three', 'four', 'five', 'six', 'seven']);
  });
});

describe('rows and columns', () => {
  it('types a text column once, whatever later cells hold: an object still makes it json', () => {
    const rows = [{ t: 'plain', j: 'text', d: '2024-01-02' }, { t: '2024-01-02', j: { a: 1 }, d: null }, { t: null }];
    expect(inferColumns(rows)).toEqual([
      { name: 't', type: 'string' },
      { name: 'j', type: 'json' },
      { name: 'd', type: 'date' },
    ]);
  });

  it('types dates and date-times exactly as their patterns say, cell by cell', () => {
    // The oracle: the patterns as regular expressions (the engine checks them character by character).
    const date = /^\d{4}-\d{2}-\d{2}$/;
    const dateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
    const expected = (text: string) =>
      date.test(text) ? 'date' : dateTime.test(text) && !Number.isNaN(Date.parse(text)) ? 'datetime' : 'string';
    const texts = [
      '2024-01-02',
      '2024-1-02',
      '2024-01-02 ',
      '2024/01/02',
      '२०२४-01-02',
      '2024-01-0x',
      '12024-01-02',
      '2024-01-02T03:04Z',
      '2024-01-02t03:04z',
      '2024-01-02 03:04:05Z',
      '2024-01-02T03:04:05.123456Z',
      '2024-01-02T03:04:05.Z',
      '2024-01-02T03:04:05+02:00',
      '2024-01-02T03:04:05-0230',
      '2024-01-02T03:04:05+2:00',
      '2024-01-02T03:04:05+02:0',
      '2024-01-02T03:04:05+02:000',
      '2024-01-02T03:04:05',
      '2024-01-02T03:04:5Z',
      '2024-01-02T3:04:05Z',
      '2024-01-02X03:04:05Z',
      '2024-13-02T03:04:05Z',
      '2024-01-02T25:04:05Z',
      '2024-01-02T03:04:05ZZ',
      '2024-01-02T03:04:05+02:00Z',
      '2024-01-02T03:04:05.1+05:30',
      '',
    ];
    for (const text of texts) {
      // Alone, and after a first cell of the column's own type (the path a page's later cells take).
      expect(inferColumns([{ v: text }]), text).toEqual([{ name: 'v', type: expected(text) }]);
      for (const first of ['2024-01-01', '2024-01-01T00:00:00Z']) {
        const type = expected(text) === expected(first) ? expected(first) : 'string';
        expect(inferColumns([{ v: first }, { v: text }]), `${first} then ${text}`).toEqual([{ name: 'v', type }]);
      }
    }
    expect(inferColumns([{ n: 1 }, { n: 2.5 }, { n: 3 }, { n: null }])).toEqual([{ name: 'n', type: 'decimal' }]);
    expect(inferColumns([{ n: 1 }, { n: 'x' }, { n: 2 }])).toEqual([{ name: 'n', type: 'string' }]);
    expect(inferColumns([{ n: true }, { n: [1] }, { n: 'x' }])).toEqual([{ name: 'n', type: 'json' }]);
  });

  it('shapes a row to the columns: the row itself when its keys are the columns in order', () => {
    const columns = inferColumns([{ a: 1, b: 'x' }]);
    const exact = { a: 1, b: 'x' };
    expect(shapeRow(exact, columns)).toBe(exact);
    expect(shapeRow({ b: 'x', a: 1 }, columns)).toEqual({ a: 1, b: 'x' });
    expect(Object.keys(shapeRow({ b: 'x', a: 1 }, columns))).toEqual(['a', 'b']);
    expect(shapeRow({ a: 1 }, columns)).toEqual({ a: 1, b: null });
    expect(shapeRow({ a: 1, b: 'x', c: 2 }, columns)).toEqual({ a: 1, b: 'x' });
    expect(shapeRow({ a: 1, b: undefined }, columns)).toEqual({ a: 1, b: null });
    expect(shapeRow(Object.assign(Object.create({ a: 9 }) as object, { b: 'x' }), columns)).toEqual({
      a: null,
      b: 'x',
    });
  });

  it('finds rows at a dotted path, the reply itself or one object', () => {
    expect(rowsAt({ data: { items: [{ a: 1 }] } }, 'data.items')).toEqual([{ a: 1 }]);
    expect(rowsAt([1, 2], '')).toEqual([{ value: 1 }, { value: 2 }]);
    expect(rowsAt({ a: 1 }, '')).toEqual([{ a: 1 }]);
    expect(rowsAt({ data: {} }, 'data.items')).toEqual([]);
    expect(() => rowsAt({ data: 'text' }, 'data')).toThrow(/no rows/);
  });

  it('infers engine column types from the values', () => {
    const columns = inferColumns([
      { id: 1, price: 2, name: 'a', day: '2024-01-02', at: '2024-01-02T03:04:05Z', ok: true, tags: ['x'], none: null },
      {
        id: 2,
        price: 2.5,
        name: 3,
        day: '2024-01-03',
        at: '2024-01-02T03:04:05+02:00',
        ok: false,
        tags: null,
        extra: 1,
      },
    ]);
    expect(Object.fromEntries(columns.map((c) => [c.name, c.type]))).toEqual({
      id: 'integer',
      price: 'decimal',
      name: 'string',
      day: 'date',
      at: 'datetime',
      ok: 'boolean',
      tags: 'json',
      none: 'string',
      extra: 'integer',
    });
  });

  it('reads the rel="next" link of a Link header', () => {
    expect(linkNext({ link: '<https://a/p?page=1>; rel="prev", <https://a/p?page=3>; rel="next"' })).toBe(
      'https://a/p?page=3',
    );
    expect(linkNext({ link: '<https://a/p?page=9>; rel="last"' })).toBeUndefined();
    expect(linkNext({})).toBeUndefined();
    // The upstream writes the header: 64 kB of `<` took RegExp seconds (it read on from each one); RE2 reads it once.
    const started = performance.now();
    expect(linkNext({ link: '<'.repeat(65_536) })).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('Redactor', () => {
  it('masks known secrets wherever they appear, and secret-looking names', () => {
    const redactor = new Redactor(['s3cr3t value'], ['X-Custom']);
    expect(redactor.url(new URL('https://a/p?api_key=k&token=t&q=s3cr3t%20value&page=2'))).toBe(
      `https://a/p?api_key=${encodeURIComponent(secretMask)}&token=${encodeURIComponent(secretMask)}&q=${encodeURIComponent(secretMask)}&page=2`,
    );
    expect(
      redactor.headers({
        authorization: 'Bearer x',
        'x-custom': 'v',
        'x-api-key': 'k',
        accept: 'a',
        other: 'is s3cr3t value',
      }),
    ).toEqual({
      authorization: secretMask,
      'x-custom': secretMask,
      'x-api-key': secretMask,
      accept: 'a',
      other: `is ${secretMask}`,
    });
    expect(redactor.with(['tok']).text('a tok b')).toBe(`a ${secretMask} b`);
  });
});
