import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { CreatedToken } from '@datalab/contract/api/tokens';
import { isApiError } from '../../../lib/api-error.ts';
import { useCreateToken } from '../api/create-token.ts';
import { customDateError, defaultExpiryChoice, expiresOnOf, type ExpirySettings } from '../model/expiry.ts';
import { ExpiryField, type ExpiryValue } from './ExpiryField.tsx';
import { SecretReveal } from './SecretReveal.tsx';
import { TokenNameField, tokenNameError } from './TokenNameField.tsx';

interface CreateCollectionTokenFormProps {
  collection: { uid: string; name: string };
  settings: ExpirySettings;
  onClose: () => void;
}

/** A collection token: a name and an expiry (it always reads the collection, as Reader); then its secret, once. */
export function CreateCollectionTokenForm({ collection, settings, onClose }: CreateCollectionTokenFormProps) {
  const create = useCreateToken();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ExpiryValue>({ choice: defaultExpiryChoice(settings), customDate: '' });
  const [isSubmitted, setSubmitted] = useState(false);
  const [refusedName, setRefusedName] = useState<{ name: string; message: string } | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);

  if (created) {
    return (
      <SecretReveal name={created.name} secret={created.secret} actions={<Button onClick={onClose}>Done</Button>} />
    );
  }
  const nameError = tokenNameError(name, refusedName);
  const expiryError = expiry.choice === 'custom' ? customDateError(expiry.customDate, settings) : undefined;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (nameError || expiryError) return;
    try {
      const body = {
        kind: 'collection' as const,
        name: name.trim(),
        expiresOn: expiresOnOf(expiry.choice, expiry.customDate),
        collectionUid: collection.uid,
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
        <Text size="sm">
          A collection token lets a program read every data asset of {collection.name} (Reader), whoever is in the
          collection’s roles. Its Owners see it here and can revoke it.
        </Text>
        <TokenNameField
          value={name}
          onChange={setName}
          error={isSubmitted || refusedName?.name === name ? nameError : undefined}
          placeholder="e.g. Reporting service"
        />
        <ExpiryField
          settings={settings}
          value={expiry}
          onChange={setExpiry}
          error={isSubmitted ? expiryError : undefined}
        />
        <Group gap="sm" justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
