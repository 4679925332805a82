import { describe, expect, it } from 'vitest';
import { buildExchange } from '../test/web-api-builders.ts';
import { configureApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { callDataAsset, fetchCallingOpenApi } from './data-api.ts';

// callDataAsset reads the calling layer's JSON reply in the engine writer's layout (a row per line): zod checks the
// members around the rows, each row is checked to be an object.

const columns = [{ name: 'id', type: 'integer' }];

function answer(body: string) {
  const requests: Headers[] = [];
  configureApiClient({
    baseUrl: '',
    getAccessToken: async () => 'token-1',
    goToErrorPage: () => undefined,
    isDeveloperMode: () => false,
    fetch: async (_input, init) => {
      requests.push(new Headers(init?.headers));
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    },
  });
  return requests;
}

const layout = (rows: string[], tail: string) =>
  `{"columns":${JSON.stringify(columns)},"rows":[\n${rows.join(',\n')}\n],${tail}}`;

describe('callDataAsset', () => {
  it('gives the result, the rows as sent and the raw reply', async () => {
    const body = layout(['{"id":1}', '{"id":2}'], '"truncated":true,"durationMs":4,"cached":false');
    answer(body);
    const { result, raw, exchange, upstream } = await callDataAsset('orders', {});
    expect(result).toEqual({ columns, rows: [{ id: 1 }, { id: 2 }], truncated: true, durationMs: 4, cached: false });
    expect(raw).toBe(body);
    expect(exchange.status).toBe(200);
    expect(upstream).toBeUndefined();
  });

  it('takes the exchanges from the members after the rows when asked for them', async () => {
    const exchange = buildExchange();
    const tail = `"truncated":false,"durationMs":1,"cached":false,"exchanges":[${JSON.stringify(exchange)}],"exchangesOmitted":2`;
    const requests = answer(layout(['{"id":1}'], tail));
    const { result, upstream } = await callDataAsset('orders', {}, undefined, { withExchanges: true });
    expect(requests[0]?.get('x-datalab-exchange')).toBe('1');
    expect(result.rows).toEqual([{ id: 1 }]);
    expect(upstream).toEqual({ exchanges: [exchange], exchangesOmitted: 2 });
  });

  it('refuses members that do not match the contract, and rows that are not objects', async () => {
    answer(layout(['{"id":1}'], '"truncated":"no","durationMs":1,"cached":false'));
    await expect(callDataAsset('orders', {})).rejects.toMatchObject({ kind: 'invalid-response' });
    answer(layout(['{"id":1}', '"text"'], '"truncated":false,"durationMs":1,"cached":false'));
    const error: unknown = await callDataAsset('orders', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'invalid-response', body: expect.stringContaining('"text"') as string });
  });
});

describe('fetchCallingOpenApi', () => {
  it("GETs the calling layer's document as JSON with the bearer token in a header, and answers its bytes", async () => {
    const calls: [url: string, headers: Headers][] = [];
    configureApiClient({
      baseUrl: '',
      callingBaseUrl: 'http://calling.test',
      getAccessToken: async () => 'token-1',
      goToErrorPage: () => undefined,
      isDeveloperMode: () => false,
      fetch: async (input, init) => {
        calls.push([String(input), new Headers(init?.headers)]);
        return new Response('{"openapi":"3.1.0"}', { headers: { 'content-type': 'application/json' } });
      },
    });
    const blob = await fetchCallingOpenApi();
    expect(await blob.text()).toBe('{"openapi":"3.1.0"}');
    const [url, headers] = calls[0] ?? [];
    expect(url).toBe('http://calling.test/data/v1/openapi.json');
    expect(headers?.get('Accept')).toBe('application/json');
    expect(headers?.get('Authorization')).toBe('Bearer token-1');
  });
});
