import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { OIDC_MOUNT_PATH } from '../oidc/provider.ts';

// Security headers on every reply, with a strict Content-Security-Policy: scripts only from this
// origin (no inline script anywhere), styles from this origin. The headers are computed once; only
// HTML pages get a per-request nonce, for the <style> tags the UI library writes.

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets the headers every reply carries; app.ts calls it first thing for every request. */
    setSecurityHeaders: (request: FastifyRequest, reply: FastifyReply) => void;
  }
  interface FastifyReply {
    /** Sets a CSP with a fresh style nonce on this reply and returns the nonce (HTML pages only). */
    withStyleNonce: () => string;
  }
}

const originOf = (url: string) => new URL(url).origin;

const NO_STORE_PATHS = /^\/(api|data|mcp)(\/|\?|$)/;

/**
 * Replies that are data, never a document: the calling layer (/data/v1/...), the management API (/api/...) and the
 * MCP endpoint, except the API's browsable documentation (/api/docs, an HTML page with its scripts).
 */
const DATA_REPLIES = /^\/(data\/|api\/(?!docs(\/|$|\?))|mcp(\/|$|\?))/;
/** What a data reply allows: nothing to load, no framing. */
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";
/** The security headers a data reply keeps (with DATA_CSP, x-request-id and cache-control). */
const DATA_HEADERS = new Set([
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
]);

export function contentSecurityPolicy(
  options: { publicUrl: string; issuer: string; callingLayerUrl: string },
  styleNonce?: string,
) {
  const self = "'self'";
  const own = originOf(options.publicUrl);
  const others = (...urls: string[]) => [...new Set(urls.map(originOf))].filter((origin) => origin !== own);
  const directives: Record<string, string[]> = {
    'default-src': [self],
    'script-src': [self],
    'style-src': [self, ...(styleNonce ? [`'nonce-${styleNonce}'`] : [])],
    'img-src': [self, 'data:'],
    'font-src': [self],
    'connect-src': [self, ...others(options.issuer, options.callingLayerUrl)],
    'frame-src': [self, ...others(options.issuer)],
    'form-action': [self, ...others(options.issuer)],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': [self],
  };
  if (options.publicUrl.startsWith('https://')) directives['upgrade-insecure-requests'] = [];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const cspOptions = {
      publicUrl: config.publicUrl,
      issuer: config.oidc.issuer,
      callingLayerUrl: config.callingLayerUrl,
    };
    const headers: Record<string, string> = {
      'content-security-policy': contentSecurityPolicy(cspOptions),
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    if (config.publicUrl.startsWith('https://'))
      headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
    const entries = Object.entries(headers);
    // The calling layer's, the management API's and MCP's replies are data (JSON, CSV, NDJSON, XLSX), never a
    // document: they carry the headers that mean something for data (OWASP's REST security set) and a CSP that allows
    // nothing at all, which also holds when a browser shows one in a tab. The document-only headers (opener policy,
    // agent cluster, DNS prefetch, cross-domain policy files, the old XSS filter) are left off: a program calling at
    // a high rate pays for each (about 400 bytes a reply; bench/RESULTS.md, GetCurrentUser).
    const dataEntries = Object.entries({
      ...Object.fromEntries(entries.filter(([name]) => DATA_HEADERS.has(name))),
      'content-security-policy': DATA_CSP,
    });

    // Called by app.ts's one onRequest hook, before anything may refuse the request; no onSend stage (bench/RESULTS.md). Every reply names its request id. API and data
    // replies are per caller and may carry personal data: no cache keeps them, errors included (no /api
    // or /data route sets a cache-control of its own). The sign-in provider writes its replies itself,
    // on the raw response: there the headers go on the raw response. Everywhere else they go in the
    // reply's own headers, which Node writes as they are: set on the raw response they are stored,
    // then merged with the reply's at writeHead, ~2 µs a request more (measured, bench/RESULTS.md).
    app.decorate('setSecurityHeaders', (request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.startsWith(OIDC_MOUNT_PATH)) {
        const raw = reply.raw;
        for (const [name, value] of entries) raw.setHeader(name, value);
        raw.setHeader('x-request-id', request.id);
      } else {
        for (const [name, value] of DATA_REPLIES.test(request.url) ? dataEntries : entries) reply.header(name, value);
        reply.header('x-request-id', request.id);
        if (NO_STORE_PATHS.test(request.url)) reply.header('cache-control', 'no-store');
      }
    });

    app.decorateReply('withStyleNonce', function withStyleNonce(this: FastifyReply) {
      const nonce = randomBytes(16).toString('base64url');
      this.header('content-security-policy', contentSecurityPolicy(cspOptions, nonce));
      return nonce;
    });
  },
  { name: 'security', dependencies: ['config'] },
);
