import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { authenticateDemoAccount, listDemoAccounts } from './accounts.ts';
import { INTERACTION_PATH } from './provider.ts';
import { consentPage, errorPage, loginPage } from './pages.ts';
import { tooManyAttempts, type SignInThrottle } from './sign-in-throttle.ts';

// The login step of the built-in provider: GET shows the form, POST checks it. Consent is implied
// for the first-party portal (provider.ts, loadExistingGrant); a client that registered itself (an MCP client) is
// shown to the person, who allows or denies it once per session. Whatever the form receives (wrong
// types, huge fields, a body over the limit), the answer is the form again with its message: user
// input never reaches the 500 handler or the application log.

const FIELD_MAX = 200;
const FORM_BODY_LIMIT = 16_384;

// Only the form's own two fields, each once: anything else is not this form.
const loginForm = z.strictObject({
  username: z.string().trim().max(FIELD_MAX).default(''),
  password: z.string().max(FIELD_MAX).default(''),
});

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const INVALID_FORM = `Enter a username and a password of at most ${FIELD_MAX} characters.`;

type LoginExtra = { username?: string; error?: string };

async function renderLogin(app: FastifyInstance, reply: FastifyReply, uid: string, extra: LoginExtra = {}) {
  const demoAccounts = app.config.demo ? await listDemoAccounts(app.db) : [];
  return reply
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(loginPage({ action: `${INTERACTION_PATH}/${uid}/login`, clientName: 'Data Lab', demoAccounts, ...extra }));
}

async function details(provider: Provider, request: FastifyRequest, reply: FastifyReply) {
  try {
    return await provider.interactionDetails(request.raw, reply.raw);
  } catch (error) {
    request.log.info({ err: error }, 'sign-in interaction not found or expired');
    return undefined;
  }
}

const expired = (reply: FastifyReply) =>
  reply
    .status(400)
    .type('text/html; charset=utf-8')
    .send(errorPage('This sign-in request has expired', 'Go back to Data Lab and sign in again.'));

/** A body the form parser refused (too large, malformed): the form again, never a stack trace. */
function formErrorHandler(app: FastifyInstance) {
  return async (error: FastifyError, request: FastifyRequest<{ Params: { uid?: string } }>, reply: FastifyReply) => {
    const uid = request.params.uid;
    if (error.statusCode !== undefined && error.statusCode < 500 && uid && /^[\w-]+$/.test(uid)) {
      request.log.info({ code: error.code }, 'sign-in form refused');
      return renderLogin(app, reply.status(400), uid, { error: INVALID_FORM });
    }
    throw error; // the application's handler: logged, and answered without internals
  };
}

export async function interactionRoutes(
  app: FastifyInstance,
  options: { provider: Provider; throttle: SignInThrottle },
) {
  const { provider, throttle } = options;
  app.setErrorHandler(formErrorHandler(app));
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => {
      const fields: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(String(body))) {
        const seen = fields[name];
        fields[name] = seen === undefined ? value : [seen, value].flat();
      }
      done(null, fields);
    },
  );

  app.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, async (request, reply) => {
    const interaction = await details(provider, request, reply);
    if (!interaction || interaction.uid !== request.params.uid) return expired(reply);
    if (interaction.prompt.name === 'login') return renderLogin(app, reply, interaction.uid);
    const clientId = String(interaction.params['client_id'] ?? '');
    if (interaction.prompt.name === 'consent' && clientId !== app.config.oidc.clientId) {
      const client = await provider.Client.find(clientId);
      return reply
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(
          consentPage({
            action: `${INTERACTION_PATH}/${interaction.uid}/consent`,
            clientName: client?.clientName ?? clientId,
            redirectUri: String(interaction.params['redirect_uri'] ?? ''),
          }),
        );
    }
    // The portal's consent is granted by loadExistingGrant; finishing resumes the flow.
    reply.hijack();
    return provider.interactionFinished(request.raw, reply.raw, {}, { mergeWithLastSubmission: true });
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid/consent`, async (request, reply) => {
    const interaction = await details(provider, request, reply);
    if (!interaction || interaction.uid !== request.params.uid || interaction.prompt.name !== 'consent') {
      return expired(reply);
    }
    const decision = (request.body as Record<string, unknown> | undefined)?.['decision'];
    if (decision !== 'allow') {
      reply.hijack();
      const denied = { error: 'access_denied', error_description: 'The person did not allow this client' };
      return provider.interactionFinished(request.raw, reply.raw, denied, { mergeWithLastSubmission: false });
    }
    const { session, grantId, params } = interaction;
    const grant =
      (grantId ? await provider.Grant.find(grantId) : undefined) ??
      new provider.Grant({ accountId: String(session?.accountId), clientId: String(params['client_id']) });
    const missing = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const saved = await grant.save();
    reply.hijack();
    return provider.interactionFinished(
      request.raw,
      reply.raw,
      { consent: { grantId: saved } },
      { mergeWithLastSubmission: true },
    );
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid/login`, async (request, reply) => {
    const interaction = await details(provider, request, reply);
    if (!interaction || interaction.uid !== request.params.uid || interaction.prompt.name !== 'login') {
      return expired(reply);
    }
    const parsed = loginForm.safeParse(request.body ?? {});
    if (!parsed.success) return renderLogin(app, reply.status(400), interaction.uid, { error: INVALID_FORM });
    const form = parsed.data;
    const refuse = (status: number, error: string) =>
      renderLogin(app, reply.status(status), interaction.uid, { username: form.username, error });

    const wait = await throttle.waitFor(form.username, request.ip);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      return refuse(429, tooManyAttempts(wait));
    }
    const account =
      form.username && form.password && app.config.demo
        ? await authenticateDemoAccount(app.db, form.username, form.password)
        : undefined;
    if (!account) {
      request.log.info({ username: form.username }, 'sign-in refused');
      const blocked = await throttle.failed(form.username, request.ip);
      if (blocked > 0) {
        reply.header('retry-after', String(blocked));
        return refuse(429, tooManyAttempts(blocked));
      }
      return refuse(401, INVALID_CREDENTIALS);
    }
    await throttle.succeeded(form.username, request.ip);
    reply.hijack();
    return provider.interactionFinished(
      request.raw,
      reply.raw,
      { login: { accountId: account.username, remember: false } },
      { mergeWithLastSubmission: false },
    );
  });
}
