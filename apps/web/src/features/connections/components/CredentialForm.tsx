import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { credentialKinds, type WebApiCredential } from '@datalab/contract/api/web-api';
import { monoInput } from '../../../components/forms/mono-input.ts';
import { useLiveFieldErrors } from '../../../components/forms/use-live-field-errors.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useSaveWebApiCredential } from '../api/save-web-api-credential.ts';
import {
  credentialDraftOf,
  credentialInputOf,
  credentialKindLabels,
  newCredentialDraft,
  secretLabels,
  type CredentialDraft,
} from '../model/credential-draft.ts';
import { NameRow } from './NameRow.tsx';
import { KindSelect } from './KindSelect.tsx';
import { SecretInput } from './SecretInput.tsx';

const KEY_PLACES = [
  { value: 'header', label: 'A header' },
  { value: 'query', label: 'A query parameter' },
];
const CLIENT_AUTH = [
  { value: 'basic', label: 'HTTP Basic' },
  { value: 'body', label: 'In the form body' },
];

interface CredentialFormProps {
  connectionId: number;
  /** The credential being changed; none to add one. */
  stored?: WebApiCredential;
  onSaved: (saved: WebApiCredential) => void;
  onCancel: () => void;
}

/** Kind-specific settings of a credential: where an API key goes, a user name, the OAuth2 token endpoint. */
function KindFields({ draft, set, errorOf }: FieldsProps) {
  switch (draft.kind) {
    case 'api-key':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Sent in"
            data={KEY_PLACES}
            value={draft.keyIn}
            allowDeselect={false}
            onChange={(value) => set('keyIn', value === 'query' ? 'query' : 'header')}
          />
          <TextInput
            label={draft.keyIn === 'query' ? 'Query parameter name' : 'Header name'}
            required
            styles={monoInput}
            value={draft.keyName}
            error={errorOf('settings.name')}
            onChange={(e) => set('keyName', e.currentTarget.value)}
          />
        </SimpleGrid>
      );
    case 'basic':
      return (
        <TextInput
          label="User name"
          autoComplete="off"
          value={draft.username}
          error={errorOf('settings.username')}
          onChange={(e) => set('username', e.currentTarget.value)}
        />
      );
    case 'oauth2':
      return (
        <Stack gap="sm">
          <TextInput
            label="Token URL"
            required
            styles={monoInput}
            value={draft.tokenUrl}
            error={errorOf('settings.tokenUrl')}
            onChange={(e) => set('tokenUrl', e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Client id"
              required
              value={draft.clientId}
              error={errorOf('settings.clientId')}
              onChange={(e) => set('clientId', e.currentTarget.value)}
            />
            <Select
              label="Client authentication"
              data={CLIENT_AUTH}
              value={draft.clientAuth}
              allowDeselect={false}
              onChange={(value) => set('clientAuth', value === 'body' ? 'body' : 'basic')}
            />
            <TextInput label="Scope" value={draft.scope} onChange={(e) => set('scope', e.currentTarget.value)} />
            <TextInput
              label="Audience"
              value={draft.audience}
              onChange={(e) => set('audience', e.currentTarget.value)}
            />
          </SimpleGrid>
        </Stack>
      );
    case 'bearer':
      return null;
  }
}

const NO_ERRORS = {};

interface FieldsProps {
  draft: CredentialDraft;
  set: <K extends keyof CredentialDraft>(key: K, value: CredentialDraft[K]) => void;
  errorOf: (field: string) => string | undefined;
}

/** Adds or changes one credential of a connection. Its secret is sealed by the server and never shown again. */
export function CredentialForm({ connectionId, stored, onSaved, onCancel }: CredentialFormProps) {
  const [draft, setDraft] = useState<CredentialDraft>(() =>
    stored ? credentialDraftOf(stored) : newCredentialDraft(),
  );
  const save = useSaveWebApiCredential();
  // A field's message leaves as the field changes.
  const errors = useLiveFieldErrors(save.error instanceof ApiError ? save.error.errors : NO_ERRORS, draft);
  const errorOf = (field: string) => errors[field]?.join(' ');
  const set = <K extends keyof CredentialDraft>(key: K, value: CredentialDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  const changesKind = stored !== undefined && stored.kind !== draft.kind;
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const target = stored ? { stored } : { connectionId };
    save.mutate(credentialInputOf(draft, target), { onSuccess: onSaved });
  };
  const secretHint = changesKind ? `A new kind needs its own ${secretLabels[draft.kind].toLowerCase()}.` : undefined;

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Credential">
      <Stack gap="md">
        <NameRow value={draft.name} error={errorOf('name')} onChange={(name) => set('name', name)}>
          <KindSelect
            kinds={credentialKinds}
            labels={credentialKindLabels}
            value={draft.kind}
            onChange={(kind) => set('kind', kind)}
          />
        </NameRow>
        <KindFields draft={draft} set={set} errorOf={errorOf} />
        <SecretInput
          label={secretLabels[draft.kind]}
          isStored={stored !== undefined}
          description={secretHint}
          required={draft.kind !== 'basic'}
          value={draft.secret}
          error={errorOf('secret')}
          onChange={(secret) => set('secret', secret)}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {stored ? 'Save credential' : 'Add credential'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
