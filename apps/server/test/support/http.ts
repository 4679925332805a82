import type { FastifyInstance } from 'fastify';

// A tiny HTTP surface that works the same over inject (integration tests) and a real port (bench,
// end-to-end set-up), so the sign-in script below runs against either.

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type HttpClient = (request: {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<HttpResponse>;

export function injectClient(app: FastifyInstance): HttpClient {
  return async ({ method, url, headers = {}, body }) => {
    const target = new URL(url);
    const response = await app.inject({
      method: method as 'GET',
      url: `${target.pathname}${target.search}`,
      headers: { host: target.host, ...headers },
      ...(body !== undefined ? { payload: body } : {}),
    });
    const replyHeaders = Object.fromEntries(
      Object.entries(response.headers).map(([key, value]) => [key, typeof value === 'number' ? String(value) : value]),
    );
    return { status: response.statusCode, headers: replyHeaders, body: response.body };
  };
}

export function fetchClient(): HttpClient {
  return async ({ method, url, headers = {}, body }) => {
    const response = await fetch(url, { method, headers, body: body ?? null, redirect: 'manual' });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;
    return { status: response.status, headers: out, body: await response.text() };
  };
}
