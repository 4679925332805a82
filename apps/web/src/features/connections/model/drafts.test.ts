import { describe, expect, it } from 'vitest';
import { webApiConnection, type WebApiCredential } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { buildApiKeyCredential, buildWebApiConnection } from '../../../test/web-api-builders.ts';
import { credentialDraftOf, credentialInputOf, newCredentialDraft } from './credential-draft.ts';
import { newWebApiDraft, webApiDraftOf, webApiSettingsOf } from './web-api-connection-draft.ts';

const stored = webApiConnection.parse(buildWebApiConnection({ allowedHosts: ['10.0.0.5'] }));
const apiKey = stored.credentials[0] as WebApiCredential;

describe('the Web API connection draft', () => {
  it('sends the allowed hosts only when the caller may change them and they changed', () => {
    const draft = webApiDraftOf(stored);
    const unchanged = webApiSettingsOf(draft, { canChangeAllowedHosts: true, storedHosts: stored.allowedHosts });
    expect(unchanged).not.toHaveProperty('allowedHosts');
    const changed = { ...draft, allowedHosts: ['10.0.0.5', ' api.internal:8443 ', ''] };
    expect(webApiSettingsOf(changed, { canChangeAllowedHosts: true, storedHosts: stored.allowedHosts })).toMatchObject({
      allowedHosts: ['10.0.0.5', 'api.internal:8443'],
    });
    expect(webApiSettingsOf(changed, { canChangeAllowedHosts: false, storedHosts: [] })).not.toHaveProperty(
      'allowedHosts',
    );
  });

  it('keeps the settings as the server has them: headers as a record, the reply size in bytes', () => {
    const settings = webApiSettingsOf(webApiDraftOf(stored), { canChangeAllowedHosts: false, storedHosts: [] });
    expect(settings).toMatchObject({ headers: { Accept: 'application/json' }, maxReplyBytes: stored.maxReplyBytes });
    expect(newWebApiDraft().maxReplyKb * 1024).toBe(16 * 1024 * 1024);
  });
});

describe('the credential draft', () => {
  it('sends a secret only when one was typed over the masked one', () => {
    const draft = credentialDraftOf(apiKey);
    expect(draft.secret).toBe(texts.maskedSecret);
    expect(credentialInputOf(draft, { stored: apiKey })).toEqual({
      update: { id: 31, name: 'demo key', kind: 'api-key', settings: { in: 'header', name: 'X-Api-Key' } },
    });
    const typed = { ...draft, secret: 'n3w' };
    expect(credentialInputOf(typed, { stored: apiKey })).toMatchObject({ update: { secret: 'n3w' } });
  });

  it('builds each kind with its own settings, for a new credential of a connection', () => {
    const base = { ...newCredentialDraft(), name: 'x', secret: 's' };
    expect(credentialInputOf({ ...base, kind: 'basic', username: 'bob' }, { connectionId: 7 })).toEqual({
      create: { connectionId: 7, name: 'x', kind: 'basic', settings: { username: 'bob' }, secret: 's' },
    });
    expect(
      credentialInputOf(
        { ...base, kind: 'oauth2', tokenUrl: ' https://id.example/token ', clientId: 'c', scope: ' ', audience: 'api' },
        { connectionId: 7 },
      ),
    ).toEqual({
      create: {
        connectionId: 7,
        name: 'x',
        kind: 'oauth2',
        settings: {
          tokenUrl: 'https://id.example/token',
          clientId: 'c',
          scope: undefined,
          audience: 'api',
          clientAuth: 'basic',
        },
        secret: 's',
      },
    });
  });

  it('reads a stored OAuth2 credential back into the form', () => {
    const oauth = {
      ...buildApiKeyCredential(),
      kind: 'oauth2',
      settings: { tokenUrl: 'https://id.example/token', clientId: 'portal', clientAuth: 'body' },
    };
    const credential = webApiConnection.shape.credentials.element.parse(oauth);
    expect(credentialDraftOf(credential)).toMatchObject({
      kind: 'oauth2',
      tokenUrl: 'https://id.example/token',
      clientId: 'portal',
      scope: '',
      clientAuth: 'body',
    });
  });
});
