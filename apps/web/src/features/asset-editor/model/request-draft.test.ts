import { describe, expect, it } from 'vitest';
import { webApiRequest } from '@datalab/contract/web-api-request';
import { emptyRequest, requestDraftOf, requestOf, requestParameters, type RequestDraft } from './request-draft.ts';
import { newRow } from '../../../components/forms/key-value.ts';

const draft = (change: Partial<RequestDraft>): RequestDraft => ({ ...emptyRequest(), ...change });

describe('the request draft', () => {
  it('round-trips a stored request, paging and body included, into the contract shape', () => {
    const stored = webApiRequest.parse({
      method: 'POST',
      path: '/search/{region}',
      query: { lang: '{lang}' },
      headers: { 'X-Tenant': 'acme' },
      body: { filter: { country: '{country}' }, limit: 10 },
      rowsPath: 'data.items',
      paging: { kind: 'page', param: 'p', start: 0, size: 50, sizeParam: 'per_page' },
    });
    const result = requestOf(requestDraftOf(stored));
    expect(result).toEqual({ ok: true, request: stored });
    expect(webApiRequest.parse(result.ok ? result.request : null)).toEqual(stored);
  });

  it('leaves out empty query names and optional paging fields, and trims what is typed', () => {
    const result = requestOf(
      draft({
        path: ' /x ',
        query: [newRow('', 'orphan'), newRow(' a ', '{a}')],
        paging: { kind: 'page', pageParam: ' page ', start: 1, size: null, sizeParam: '', nextPath: '' },
      }),
    );
    expect(result).toEqual({
      ok: true,
      request: {
        method: 'GET',
        path: '/x',
        query: { a: '{a}' },
        headers: {},
        rowsPath: '',
        paging: { kind: 'page', param: 'page', start: 1 },
      },
    });
  });

  it('says why a body cannot be sent: not JSON, or on a GET', () => {
    expect(requestOf(draft({ method: 'POST', body: '{ "a": ' }))).toEqual({
      ok: false,
      error: 'The body is not valid JSON.',
    });
    const onGet = requestOf(draft({ method: 'GET', body: '{}' }));
    expect(onGet.ok).toBe(false);
    expect(requestOf(draft({ method: 'GET', body: '   ' }))).toMatchObject({ ok: true });
    expect(requestOf(draft({ method: 'PUT', body: '["{id}", 2]' }))).toMatchObject({
      ok: true,
      request: { body: ['{id}', 2] },
    });
  });

  it('finds the placeholders in path, query and header values and the body, in that order', () => {
    const names = requestParameters(
      draft({
        path: '/a/{one}',
        query: [newRow('{notAName}', '{two}')],
        headers: [newRow('X', 'v-{three}')],
        body: '{"x": "{four}", "y": "{one}"}',
      }),
    );
    expect(names).toEqual(['one', 'two', 'three', 'four']);
  });
});
