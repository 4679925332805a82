// The record of one upstream request, for the developer view and "Try": what was sent and what came back, with
// every secret replaced by a run of asterisks (product §9). Secrets are known values (the credential's key, password,
// token, client secret, the access token) and anything in a header or query parameter whose name says "secret".

export const secretMask = '********';

export interface ExchangeTimings {
  /** Resolving the host: the guard's check and, on a new connection, the connect-time lookup. */
  dnsMs?: number;
  /** Opening a new connection (TCP and TLS); absent when a kept-alive connection was reused. */
  connectMs?: number;
  /** From sending the request to the reply's headers. */
  headersMs?: number;
  /** Reading the reply's body. */
  bodyMs?: number;
  totalMs: number;
}

export interface HttpExchange {
  /** 'request': the data request (and its redirects and pages); 'token': an OAuth2 token request; 'test'. */
  kind: 'request' | 'token' | 'test';
  /** 1 for the first try, 2 and more for retries. */
  attempt: number;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** The data request's body; never recorded for a token request. */
  requestBody?: string;
  status?: number;
  replyHeaders?: Record<string, string>;
  /** The start of the reply when it was an error or not JSON (secrets masked). */
  replyPreview?: string;
  timings: ExchangeTimings;
  bytes: { sent: number; received: number };
  /** Why the exchange failed, when it did (the engine error's safe message). */
  error?: string;
}

const secretName =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|passw|session|signature|credential|(^|[-_])sig$|key$|(^|[-_])auth/i;

/** Whether a header or query parameter of this name is treated as a secret. */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

export class Redactor {
  readonly #raw: readonly string[];
  readonly #variants: string[];
  readonly #names: readonly string[];

  /** `secrets`: values to mask wherever they appear; `names`: header or parameter names that are always masked. */
  constructor(secrets: readonly string[] = [], names: readonly string[] = []) {
    this.#raw = secrets.filter((s) => s.length > 0);
    this.#names = names.map((n) => n.toLowerCase());
    const variants = this.#raw.flatMap((s) => [
      s,
      encodeURIComponent(s),
      new URLSearchParams({ s }).toString().slice(2),
    ]);
    // Longest first, so a secret containing another is masked whole.
    this.#variants = [...new Set(variants)].sort((a, b) => b.length - a.length);
  }

  /** The same redactor, also masking these values (an access token fetched later). */
  with(secrets: readonly string[]): Redactor {
    return new Redactor([...this.#raw, ...secrets], this.#names);
  }

  #secretName(name: string): boolean {
    return this.#names.includes(name.toLowerCase()) || isSecretName(name);
  }

  text(value: string): string {
    let out = value;
    for (const secret of this.#variants) out = out.split(secret).join(secretMask);
    return out;
  }

  url(url: URL): string {
    const copy = new URL(url);
    if (copy.username) copy.username = secretMask;
    if (copy.password) copy.password = secretMask;
    for (const name of new Set(copy.searchParams.keys()))
      if (this.#secretName(name)) copy.searchParams.set(name, secretMask);
    return this.text(copy.toString());
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(', ') : value;
      out[name] = this.#secretName(name) ? secretMask : this.text(text);
    }
    return out;
  }
}
