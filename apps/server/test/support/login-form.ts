import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

// Opens the built-in provider's login form (an authorization request, then the interaction page)
// and lets a test post to it as often as it likes, from a chosen address.

export interface LoginForm {
  action: string;
  /** Posts the form; `body` replaces the url-encoded username and password when given. */
  post: (
    fields: Record<string, string>,
    options?: { body?: string; contentType?: string },
  ) => Promise<LightMyRequestResponse>;
}

const cookiesOf = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((line) => line.split(';')[0]).join('; ');

export async function openLoginForm(
  app: FastifyInstance,
  publicUrl: string,
  remoteAddress = '127.0.0.1',
): Promise<LoginForm> {
  const host = new URL(publicUrl).host;
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const query = new URLSearchParams({
    client_id: 'datalab-portal',
    redirect_uri: `${publicUrl}/auth/token`,
    response_type: 'code',
    scope: 'openid profile',
    state: 'state-1234',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const started = await app.inject({ method: 'GET', url: `/oidc/auth?${query}`, headers: { host }, remoteAddress });
  const cookie = cookiesOf(started.headers['set-cookie']);
  const interaction = new URL(String(started.headers.location), publicUrl).pathname;
  const page = await app.inject({ method: 'GET', url: interaction, headers: { host, cookie }, remoteAddress });
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1];
  if (!action) throw new Error(`no login form: ${page.statusCode} ${page.body.slice(0, 200)}`);
  return {
    action,
    post: (fields, options = {}) => {
      const request: InjectOptions = {
        method: 'POST',
        url: action,
        headers: { host, cookie, 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' },
        payload: options.body ?? new URLSearchParams(fields).toString(),
        remoteAddress,
      };
      return app.inject(request);
    },
  };
}
