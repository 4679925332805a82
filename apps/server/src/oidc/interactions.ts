import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { authenticateDemoAccount, listDemoAccounts } from './accounts.ts';
import { INTERACTION_PATH } from './provider.ts';
import { errorPage, loginPage } from './pages.ts';

// The login step of the built-in provider: GET shows the form, POST checks it. Consent is implied
// for the first-party portal (provider.ts, loadExistingGrant).

const loginForm = z.object({ username: z.string().trim().max(200).default(''), password: z.string().max(200).default('') });

export const INVALID_CREDENTIALS = 'Invalid username or password';

async function renderLogin(app: FastifyInstance, reply: FastifyReply, uid: string, extra: { username?: string; error?: string } = {}) {
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

export async function interactionRoutes(app: FastifyInstance, options: { provider: Provider }) {
  const { provider } = options;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid`, async (request, reply) => {
    const interaction = await details(provider, request, reply);
    if (!interaction || interaction.uid !== request.params.uid) return expired(reply);
    if (interaction.prompt.name === 'login') return renderLogin(app, reply, interaction.uid);
    // Any other prompt (consent) is granted by loadExistingGrant; finishing resumes the flow.
    reply.hijack();
    return provider.interactionFinished(request.raw, reply.raw, {}, { mergeWithLastSubmission: true });
  });

  app.post<{ Params: { uid: string } }>(`${INTERACTION_PATH}/:uid/login`, async (request, reply) => {
    const interaction = await details(provider, request, reply);
    if (!interaction || interaction.uid !== request.params.uid || interaction.prompt.name !== 'login') {
      return expired(reply);
    }
    const form = loginForm.parse(request.body ?? {});
    const account =
      form.username && form.password && app.config.demo
        ? await authenticateDemoAccount(app.db, form.username, form.password)
        : undefined;
    if (!account) {
      request.log.info({ username: form.username }, 'sign-in refused');
      reply.status(401);
      return renderLogin(app, reply, interaction.uid, { username: form.username, error: INVALID_CREDENTIALS });
    }
    reply.hijack();
    return provider.interactionFinished(
      request.raw,
      reply.raw,
      { login: { accountId: account.username, remember: false } },
      { mergeWithLastSubmission: false },
    );
  });
}
