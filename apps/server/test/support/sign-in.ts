import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { HttpClient, HttpResponse } from './http.ts';

// Signs in through the built-in provider exactly as a browser would (authorization code + PKCE,
// the real login form), without a browser: for integration tests, benchmarks and e2e set-up.

export interface SignInOptions {
  publicUrl: string;
  clientId?: string;
  scope?: string;
  username: string;
  password: string;
}

const tokenResponse = z.object({
  access_token: z.string(),
  id_token: z.string(),
  refresh_token: z.string().optional(),
  expires_in: z.number(),
  token_type: z.string(),
  scope: z.string().optional(),
});
export type Tokens = z.infer<typeof tokenResponse>;

export class SignInError extends Error {
  readonly response: HttpResponse | undefined;
  constructor(message: string, response?: HttpResponse) {
    super(message);
    this.name = 'SignInError';
    this.response = response;
  }
}

class CookieJar {
  readonly #cookies = new Map<string, string>();
  store(response: HttpResponse) {
    const raw = response.headers['set-cookie'];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (!pair || index < 0) continue;
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): Record<string, string> {
    return this.#cookies.size === 0 ? {} : { cookie: [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}

const location = (response: HttpResponse) => {
  const value = response.headers['location'];
  return typeof value === 'string' ? value : undefined;
};

export async function signIn(http: HttpClient, options: SignInOptions): Promise<Tokens> {
  const jar = new CookieJar();
  const base = options.publicUrl.replace(/\/$/, '');
  const redirectUri = `${base}/auth/token`;
  const clientId = options.clientId ?? 'datalab-portal';
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  const get = async (url: string) => {
    const response = await http({ method: 'GET', url: new URL(url, base).href, headers: jar.header() });
    jar.store(response);
    return response;
  };
  const postForm = async (url: string, form: Record<string, string>) => {
    const response = await http({
      method: 'POST',
      url: new URL(url, base).href,
      headers: { ...jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    jar.store(response);
    return response;
  };

  const authorize = new URL(`${base}/oidc/auth`);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: options.scope ?? 'openid profile email LOS locality country',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();

  let response = await get(authorize.href);
  const interaction = location(response);
  if (!interaction) throw new SignInError('the provider did not start a sign-in interaction', response);
  response = await get(interaction);
  const action = /<form method="post" action="([^"]+)"/.exec(response.body)?.[1];
  if (!action) throw new SignInError('no login form on the interaction page', response);
  response = await postForm(action.replaceAll('&amp;', '&'), {
    username: options.username,
    password: options.password,
  });
  if (response.status === 401) throw new SignInError('invalid username or password', response);

  // Follow redirects until the provider sends us back to the portal with a code.
  for (let hops = 0; hops < 5; hops += 1) {
    const next = location(response);
    if (!next) throw new SignInError(`sign-in stopped with status ${response.status}`, response);
    const url = new URL(next, base);
    if (url.href.startsWith(redirectUri)) {
      if (url.searchParams.get('state') !== state) throw new SignInError('state mismatch');
      const code = url.searchParams.get('code');
      if (!code) throw new SignInError(`no code: ${url.searchParams.get('error') ?? 'unknown error'}`);
      const token = await postForm(`${base}/oidc/token`, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: verifier,
      });
      if (token.status !== 200) throw new SignInError(`token endpoint answered ${token.status}: ${token.body}`, token);
      return tokenResponse.parse(JSON.parse(token.body));
    }
    response = await get(url.href);
  }
  throw new SignInError('too many redirects during sign-in', response);
}
