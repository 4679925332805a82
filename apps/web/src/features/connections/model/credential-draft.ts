import type { CredentialKind, WebApiCredential } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import type { SaveCredentialInput } from '../api/save-web-api-credential.ts';

// The form's copy of one credential. The secret field starts with the masked placeholder the server sends; only a
// value the user typed is sent, so the stored secret stays unless it is replaced.

export const credentialKindLabels: Record<CredentialKind, string> = {
  'api-key': 'API key',
  basic: 'Basic (user and password)',
  bearer: 'Bearer token',
  oauth2: 'OAuth2 client credentials',
};

/** What the secret is called for each kind. */
export const secretLabels: Record<CredentialKind, string> = {
  'api-key': 'Key value',
  basic: 'Password',
  bearer: 'Token',
  oauth2: 'Client secret',
};

export interface CredentialDraft {
  name: string;
  kind: CredentialKind;
  keyIn: 'header' | 'query';
  keyName: string;
  username: string;
  tokenUrl: string;
  clientId: string;
  scope: string;
  audience: string;
  clientAuth: 'basic' | 'body';
  secret: string;
}

export function newCredentialDraft(): CredentialDraft {
  return {
    name: '',
    kind: 'api-key',
    keyIn: 'header',
    keyName: 'X-Api-Key',
    username: '',
    tokenUrl: 'https://',
    clientId: '',
    scope: '',
    audience: '',
    clientAuth: 'basic',
    secret: '',
  };
}

export function credentialDraftOf(credential: WebApiCredential): CredentialDraft {
  const draft: CredentialDraft = {
    ...newCredentialDraft(),
    name: credential.name,
    kind: credential.kind,
    secret: credential.secret ?? '',
  };
  switch (credential.kind) {
    case 'api-key':
      return { ...draft, keyIn: credential.settings.in, keyName: credential.settings.name };
    case 'basic':
      return { ...draft, username: credential.settings.username };
    case 'oauth2':
      return {
        ...draft,
        tokenUrl: credential.settings.tokenUrl,
        clientId: credential.settings.clientId,
        scope: credential.settings.scope ?? '',
        audience: credential.settings.audience ?? '',
        clientAuth: credential.settings.clientAuth,
      };
    case 'bearer':
      return draft;
  }
}

/**
 * Whether the secret field holds a new secret: not the placeholder, and not the field as it started. A stored
 * credential changing kind needs a new one (the old secret means something else).
 */
export function isNewSecret(draft: CredentialDraft, stored: WebApiCredential | undefined): boolean {
  if (draft.secret === texts.maskedSecret) return false;
  return draft.secret !== (stored?.secret ?? '');
}

const optional = (text: string) => (text.trim() === '' ? undefined : text.trim());

/** The kind and its settings, as the calls take them (the contract's union, without the common fields). */
type KindPart =
  | { kind: 'api-key'; settings: { in: 'header' | 'query'; name: string } }
  | { kind: 'basic'; settings: { username: string } }
  | { kind: 'bearer'; settings: Record<string, never> }
  | {
      kind: 'oauth2';
      settings: { tokenUrl: string; clientId: string; scope?: string; audience?: string; clientAuth: 'basic' | 'body' };
    };

function settingsOf(draft: CredentialDraft): KindPart {
  switch (draft.kind) {
    case 'api-key':
      return { kind: draft.kind, settings: { in: draft.keyIn, name: draft.keyName.trim() } };
    case 'basic':
      return { kind: draft.kind, settings: { username: draft.username } };
    case 'bearer':
      return { kind: draft.kind, settings: {} };
    case 'oauth2':
      return {
        kind: draft.kind,
        settings: {
          tokenUrl: draft.tokenUrl.trim(),
          clientId: draft.clientId.trim(),
          scope: optional(draft.scope),
          audience: optional(draft.audience),
          clientAuth: draft.clientAuth,
        },
      };
  }
}

/** The create or update call's body; the secret only when one was typed. */
export function credentialInputOf(
  draft: CredentialDraft,
  target: { connectionId: number } | { stored: WebApiCredential },
): SaveCredentialInput {
  const stored = 'stored' in target ? target.stored : undefined;
  const secret = isNewSecret(draft, stored) ? draft.secret : undefined;
  const common = { name: draft.name, ...settingsOf(draft), ...(secret === undefined ? {} : { secret }) };
  if (stored) return { update: { id: stored.id, ...common } };
  return { create: { connectionId: 'connectionId' in target ? target.connectionId : 0, ...common } };
}

/** One line about where and how a credential is sent, for the list. */
export function credentialSummary(credential: WebApiCredential): string {
  switch (credential.kind) {
    case 'api-key':
      return `${credential.settings.in === 'query' ? 'Query parameter' : 'Header'} ${credential.settings.name}`;
    case 'basic':
      return `User ${credential.settings.username || texts.notSet}`;
    case 'bearer':
      return 'Authorization: Bearer';
    case 'oauth2':
      return `Client ${credential.settings.clientId} at ${credential.settings.tokenUrl}`;
  }
}
