import { z } from 'zod';
import { EngineError } from '../errors.ts';
import { raceAbort } from '../connectors/abort.ts';
import { headerNameSchema } from './template.ts';

// A connection's credentials. A data source names one; it is applied only to requests on the connection's own
// origin (never to a redirect or a next-page link elsewhere). OAuth2 client-credentials tokens are cached until
// 60 s before they expire and fetched once for any number of simultaneous calls.

const id = z.string().min(1).max(100);
const secret = z.string().min(1).max(8192);

export const credentialSchema = z.discriminatedUnion('kind', [
  z.object({
    id,
    kind: z.literal('apiKey'),
    in: z.enum(['header', 'query']).default('header'),
    name: z.string().min(1).max(200),
    value: secret,
  }),
  z.object({ id, kind: z.literal('basic'), username: z.string().max(1000), password: z.string().max(8192) }),
  z.object({ id, kind: z.literal('bearer'), token: secret }),
  z.object({
    id,
    kind: z.literal('oauth2'),
    tokenUrl: z.url({ protocol: /^https?$/ }),
    clientId: z.string().min(1).max(1000),
    clientSecret: secret,
    scope: z.string().max(2000).optional(),
    audience: z.string().max(2000).optional(),
    /** How the client authenticates at the token URL: HTTP Basic (RFC 6749 §2.3.1) or in the form body. */
    clientAuth: z.enum(['basic', 'body']).default('basic'),
  }),
]);
export type Credential = z.output<typeof credentialSchema>;
export type CredentialInput = z.input<typeof credentialSchema>;
export type OAuth2Credential = Extract<Credential, { kind: 'oauth2' }>;

export const credentialsSchema = z
  .array(credentialSchema)
  .max(50)
  .refine((list) => new Set(list.map((c) => c.id)).size === list.length, 'Credential ids must be unique')
  .refine(
    (list) => list.every((c) => c.kind !== 'apiKey' || c.in === 'query' || headerNameSchema.safeParse(c.name).success),
    'An API key header name is not valid',
  );

/** The values to mask wherever they appear in an exchange record. */
export function credentialSecrets(credential: Credential | undefined): string[] {
  if (!credential) return [];
  switch (credential.kind) {
    case 'apiKey':
      return [credential.value];
    case 'basic':
      return [credential.password, Buffer.from(`${credential.username}:${credential.password}`).toString('base64')];
    case 'bearer':
      return [credential.token];
    case 'oauth2':
      return [credential.clientSecret];
  }
}

/** The names (header or query parameter) that always carry the credential. */
export function credentialNames(credential: Credential | undefined): string[] {
  return credential?.kind === 'apiKey' ? [credential.name] : [];
}

/**
 * Puts the credential on a request: in `headers` (changed), or in the query of the URL it answers (a copy; `url` is
 * left as it is). `token` is the OAuth2 access token.
 */
export function applyCredential(
  credential: Credential,
  url: URL,
  headers: Record<string, string>,
  token: string | undefined,
): URL {
  switch (credential.kind) {
    case 'apiKey': {
      if (credential.in !== 'query') {
        headers[credential.name.toLowerCase()] = credential.value;
        return url;
      }
      // A copy: the URL asked for stays without the key (next pages and records are made from it).
      const keyed = new URL(url);
      keyed.searchParams.set(credential.name, credential.value);
      return keyed;
    }
    case 'basic':
      headers['authorization'] =
        `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
      return url;
    case 'bearer':
      headers['authorization'] = `Bearer ${credential.token}`;
      return url;
    case 'oauth2':
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      return url;
  }
}

export interface IssuedToken {
  accessToken: string;
  /** Seconds, from the token reply's expires_in; undefined when it gave none. */
  expiresIn: number | undefined;
}

/** Fetches one token (through the outbound guard); the cache decides when. `context` is the first asker's. */
export type TokenFetcher<C> = (credential: OAuth2Credential, signal: AbortSignal, context: C) => Promise<IssuedToken>;

interface CachedToken {
  token: string;
  expiresAt: number;
}

const refreshMarginMs = 60_000;
/** How long a token without expires_in is kept. */
const defaultLifetimeMs = 300_000;

export class TokenCache<C = undefined> {
  readonly #fetch: TokenFetcher<C>;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #tokens = new Map<string, CachedToken>();
  readonly #pending = new Map<string, Promise<CachedToken>>();

  /** `timeoutMs` bounds one token request, whoever waits for it. */
  constructor(fetch: TokenFetcher<C>, timeoutMs: number, now: () => number = Date.now) {
    this.#fetch = fetch;
    this.#timeoutMs = timeoutMs;
    this.#now = now;
  }

  /** A valid access token: the cached one, or one fetch shared by every caller waiting at that moment. */
  async get(credential: OAuth2Credential, signal: AbortSignal, context: C): Promise<string> {
    const cached = this.#tokens.get(credential.id);
    if (cached && cached.expiresAt > this.#now()) return cached.token;
    let pending = this.#pending.get(credential.id);
    if (!pending) {
      pending = this.#issue(credential, context);
      this.#pending.set(credential.id, pending);
      const clear = () => this.#pending.delete(credential.id);
      pending.then(clear, clear);
    }
    return (await raceAbort(pending, signal)).token;
  }

  async #issue(credential: OAuth2Credential, context: C): Promise<CachedToken> {
    // The shared fetch has its own time limit: one caller giving up does not cancel it for the others.
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new EngineError('TIMEOUT', 'The OAuth2 token request did not finish in time')),
      this.#timeoutMs,
    );
    let issued: IssuedToken;
    try {
      issued = await this.#fetch(credential, deadline.signal, context);
    } finally {
      clearTimeout(timer);
    }
    const lifetimeMs = issued.expiresIn === undefined ? defaultLifetimeMs : issued.expiresIn * 1000;
    const entry = { token: issued.accessToken, expiresAt: this.#now() + lifetimeMs - refreshMarginMs };
    if (entry.expiresAt > this.#now()) this.#tokens.set(credential.id, entry);
    return entry;
  }

  /** Forgets a token the API refused (401), unless a newer one already replaced it. */
  invalidate(credential: OAuth2Credential, token: string): void {
    if (this.#tokens.get(credential.id)?.token === token) this.#tokens.delete(credential.id);
  }
}

/** Reads a token endpoint's JSON reply (RFC 6749 §5.1). */
export function parseTokenReply(json: unknown): IssuedToken {
  const reply = (json ?? {}) as Record<string, unknown>;
  const token = reply['access_token'];
  const type = reply['token_type'];
  if (typeof token !== 'string' || token === '')
    throw new EngineError('UPSTREAM_FAILED', 'The OAuth2 token reply has no access_token');
  if (typeof type === 'string' && type.toLowerCase() !== 'bearer')
    throw new EngineError('UPSTREAM_FAILED', `The OAuth2 token type ${type} is not supported (bearer only)`);
  const raw = reply['expires_in'];
  const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
  return { accessToken: token, expiresIn: Number.isFinite(seconds) && seconds > 0 ? seconds : undefined };
}

const formEncode = (text: string) => new URLSearchParams({ text }).toString().slice('text='.length);

/** The token request's form body and headers (client secret in Basic auth or in the body). */
export function tokenRequest(credential: OAuth2Credential): { headers: Record<string, string>; body: string } {
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (credential.scope) form.set('scope', credential.scope);
  if (credential.audience) form.set('audience', credential.audience);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (credential.clientAuth === 'body') {
    form.set('client_id', credential.clientId);
    form.set('client_secret', credential.clientSecret);
  } else {
    const pair = `${formEncode(credential.clientId)}:${formEncode(credential.clientSecret)}`;
    headers['authorization'] = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return { headers, body: form.toString() };
}
