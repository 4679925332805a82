import { useState, type FormEvent } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import type { CreatedToken } from '@datalab/contract/api/tokens';
import { isApiError } from '../../../lib/api-error.ts';
import { useCreateToken } from '../api/create-token.ts';
import { customDateError, defaultExpiryChoice, expiresOnOf, type ExpirySettings } from '../model/expiry.ts';
import { chosenRoles, type GrantableCollection, type RoleChoice } from '../model/roles.ts';
import { ExpiryField, type ExpiryValue } from './ExpiryField.tsx';
import { RolesField } from './RolesField.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import { TokenNameField, tokenNameError } from './TokenNameField.tsx';

interface CreatePatFormProps {
  settings: ExpirySettings;
  /** The collections the user holds a role on, with that role: the most a token may carry. */
  collections: GrantableCollection[];
  onCancel: () => void;
  /** After the secret was shown. */
  onDone: () => void;
}

/** A personal access token: name, expiry and roles; then its secret, once. */
export function CreatePatForm({ settings, collections, onCancel, onDone }: CreatePatFormProps) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ExpiryValue>({ choice: defaultExpiryChoice(settings), customDate: '' });
  // A user with one collection means it: it starts chosen, at the weakest role.
  const [roles, setRoles] = useState<RoleChoice>(() =>
    collections.length === 1 && collections[0] ? { [collections[0].uid]: 'Reader' } : {},
  );
  const [isSubmitted, setSubmitted] = useState(false);
  const [refusedName, setRefusedName] = useState<{ name: string; message: string } | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);

  if (created) {
    return (
      <SecretReveal name={created.name} secret={created.secret} actions={<Button onClick={onDone}>Done</Button>} />
    );
  }

  const errors = {
    name: tokenNameError(name, refusedName),
    expiry: expiry.choice === 'custom' ? customDateError(expiry.customDate, settings) : undefined,
    roles: Object.keys(roles).length === 0 ? 'At least one Role is required' : undefined,
  };
  const shown = (error: string | undefined, always = false) => (isSubmitted || always ? error : undefined);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (errors.name || errors.expiry || errors.roles) return;
    try {
      const body = {
        kind: 'personal' as const,
        name: name.trim(),
        expiresOn: expiresOnOf(expiry.choice, expiry.customDate),
        roles: chosenRoles(roles),
      };
      setCreated(await create.mutateAsync(body));
    } catch (error) {
      const message = isApiError(error) ? error.errors['name']?.[0] : undefined;
      if (message) setRefusedName({ name, message });
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="lg">
        <TokenNameField
          value={name}
          onChange={setName}
          error={shown(errors.name, refusedName?.name === name)}
          placeholder="e.g. Nightly sales export"
        />
        <ExpiryField settings={settings} value={expiry} onChange={setExpiry} error={shown(errors.expiry)} />
        <RolesField collections={collections} value={roles} onChange={setRoles} error={shown(errors.roles)} />
        <Group gap="sm">
          <Button type="submit" loading={create.isPending} disabled={collections.length === 0}>
            Create token
          </Button>
          <Button variant="default" onClick={onCancel} disabled={create.isPending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
