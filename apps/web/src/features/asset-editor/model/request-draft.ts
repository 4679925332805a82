import type { WebApiMethod, WebApiRequest, WebApiRequestInput } from '@datalab/contract/web-api-request';
import { recordOf, rowsOf, type KeyValueRow } from '../../../components/forms/key-value.ts';
import { detectTemplateParameters } from '../../../lib/template-parameters.ts';

// The editor's copy of a Web API asset's request: method, path template, query and header templates as rows, the
// body template as JSON text, where the rows are in the reply and how to page. `requestOf` turns it into the
// contract's request (the one the server checks, stores and runs); a body that is not JSON is said so before any
// call.

export interface PagingDraft {
  kind: 'none' | 'next' | 'page';
  /** 'next': where the next page's URL is in the reply; empty = the Link header. */
  nextPath: string;
  /** 'page': the page-number query parameter, where it starts, and optionally a page size. */
  pageParam: string;
  start: number;
  size: number | null;
  sizeParam: string;
}

export interface RequestDraft {
  method: WebApiMethod;
  path: string;
  query: KeyValueRow[];
  headers: KeyValueRow[];
  /** The JSON body template as typed; empty: no body. */
  body: string;
  rowsPath: string;
  paging: PagingDraft;
}

export const methodsWithoutBody: readonly WebApiMethod[] = ['GET', 'HEAD'];

const emptyPaging: PagingDraft = { kind: 'none', nextPath: '', pageParam: 'page', start: 1, size: null, sizeParam: '' };

export function emptyRequest(): RequestDraft {
  return { method: 'GET', path: '', query: [], headers: [], body: '', rowsPath: '', paging: { ...emptyPaging } };
}

function pagingDraftOf(paging: WebApiRequest['paging']): PagingDraft {
  switch (paging.kind) {
    case 'none':
      return { ...emptyPaging };
    case 'next':
      return { ...emptyPaging, kind: 'next', nextPath: paging.path };
    case 'page':
      return {
        ...emptyPaging,
        kind: 'page',
        pageParam: paging.param,
        start: paging.start,
        size: paging.size ?? null,
        sizeParam: paging.sizeParam ?? '',
      };
  }
}

export function requestDraftOf(request: WebApiRequest): RequestDraft {
  return {
    method: request.method,
    path: request.path,
    query: rowsOf(request.query),
    headers: rowsOf(request.headers),
    body: request.body === undefined || request.body === null ? '' : JSON.stringify(request.body, null, 2),
    rowsPath: request.rowsPath,
    paging: pagingDraftOf(request.paging),
  };
}

function pagingOf(paging: PagingDraft): WebApiRequestInput['paging'] {
  switch (paging.kind) {
    case 'none':
      return { kind: 'none' };
    case 'next':
      return { kind: 'next', path: paging.nextPath.trim() };
    case 'page': {
      const sizeParam = paging.sizeParam.trim();
      return {
        kind: 'page',
        param: paging.pageParam.trim(),
        start: paging.start,
        ...(paging.size === null ? {} : { size: paging.size }),
        ...(sizeParam === '' ? {} : { sizeParam }),
      };
    }
  }
}

export type RequestResult = { ok: true; request: WebApiRequestInput } | { ok: false; error: string };

/** The request as the calls take it, or why it cannot be sent yet (the body is not JSON, or a GET has one). */
export function requestOf(draft: RequestDraft): RequestResult {
  const request: WebApiRequestInput = {
    method: draft.method,
    path: draft.path.trim(),
    query: recordOf(draft.query),
    headers: recordOf(draft.headers),
    rowsPath: draft.rowsPath.trim(),
    paging: pagingOf(draft.paging),
  };
  if (draft.body.trim() === '') return { ok: true, request };
  if (methodsWithoutBody.includes(draft.method)) {
    return { ok: false, error: `A ${draft.method} request has no body: choose POST or another method, or clear it.` };
  }
  try {
    return { ok: true, request: { ...request, body: JSON.parse(draft.body) as unknown } };
  } catch {
    return { ok: false, error: 'The body is not valid JSON.' };
  }
}

/** The {name} placeholders the request uses, in order. */
export function requestParameters(draft: RequestDraft): string[] {
  return detectTemplateParameters({
    path: draft.path,
    query: draft.query.map((row) => row.value),
    headers: draft.headers.map((row) => row.value),
    body: draft.body,
  });
}
