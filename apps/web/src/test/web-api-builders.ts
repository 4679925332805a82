import type { z } from 'zod';
import type {
  httpExchange,
  webApiConnection,
  webApiCredential,
  webApiPreviewResult,
} from '@datalab/contract/api/web-api';

// Web API connections, credentials, exchanges and "Try" replies as the server sends them (wire form: date-times as
// ISO text, every secret already masked), for the fake API to serve.

type Wire<S extends z.ZodType> = z.input<S>;

export function buildApiKeyCredential(
  overrides: Partial<Extract<Wire<typeof webApiCredential>, { kind: 'api-key' }>> = {},
): Wire<typeof webApiCredential> {
  return {
    id: 31,
    connectionId: 7,
    name: 'demo key',
    kind: 'api-key',
    settings: { in: 'header', name: 'X-Api-Key' },
    secret: '********',
    assetCount: 1,
    createdAt: '2026-01-05T09:30:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    ...overrides,
  };
}

export function buildWebApiConnection(
  overrides: Partial<Wire<typeof webApiConnection>> = {},
): Wire<typeof webApiConnection> {
  return {
    id: 7,
    collectionUid: 'col-1',
    name: 'countries',
    description: 'Country facts',
    kind: 'webapi',
    baseUrl: 'https://api.example.test/v1',
    headers: { Accept: 'application/json' },
    allowedHosts: [],
    connectTimeoutMs: 5000,
    headersTimeoutMs: 15000,
    bodyTimeoutMs: 30000,
    maxReplyBytes: 16 * 1024 * 1024,
    maxPages: 1000,
    maxConnections: 10,
    acquireTimeoutMs: 2000,
    retries: 2,
    credentials: [buildApiKeyCredential()],
    assetCount: 1,
    canChangeAllowedHosts: false,
    createdAt: '2026-01-05T09:30:00.000Z',
    updatedAt: '2026-01-06T10:00:00.000Z',
    ...overrides,
  };
}

export function buildExchange(overrides: Partial<Wire<typeof httpExchange>> = {}): Wire<typeof httpExchange> {
  return {
    kind: 'request',
    attempt: 1,
    method: 'GET',
    url: 'https://api.example.test/v1/countries/EU?page=1',
    requestHeaders: { accept: 'application/json', 'x-api-key': '********' },
    status: 200,
    replyHeaders: { 'content-type': 'application/json' },
    timings: { dnsMs: 1.2, connectMs: 3.4, headersMs: 12.5, bodyMs: 0.8, totalMs: 18 },
    bytes: { sent: 120, received: 512 },
    ...overrides,
  };
}

export function buildTryReply(
  overrides: Partial<Wire<typeof webApiPreviewResult>> = {},
): Wire<typeof webApiPreviewResult> {
  return {
    columns: [
      { name: 'code', type: 'string' },
      { name: 'name', type: 'string' },
    ],
    rows: [
      { code: 'FR', name: 'France' },
      { code: 'DE', name: 'Germany' },
    ],
    truncated: false,
    durationMs: 21,
    boundValues: { region: 'EU' },
    error: null,
    exchanges: [buildExchange()],
    exchangesOmitted: 0,
    ...overrides,
  };
}
