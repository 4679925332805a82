import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useCollectionTokens } from '../api/get-collection-tokens.ts';
import type { ExpirySettings } from '../model/expiry.ts';
import { CreateCollectionTokenForm } from './CreateCollectionTokenForm.tsx';
import { TokenTable } from './TokenTable.tsx';

interface CollectionTokensProps {
  collection: { uid: string; name: string };
  settings: ExpirySettings;
  /** Owners create collection tokens; administrators see and revoke them. */
  canCreate: boolean;
}

/** A collection's Tokens tab: its collection tokens, newest first, and (for Owners) a new one. */
export function CollectionTokens({ collection, settings, canCreate }: CollectionTokensProps) {
  const tokens = useCollectionTokens(collection.uid);
  const [isCreating, setCreating] = useState(false);
  const create = canCreate ? (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New collection token
    </Button>
  ) : null;

  let content;
  if (tokens.isPending) content = <PageLoader label="Loading the collection's tokens" />;
  else if (tokens.isError) content = <InlineError error={tokens.error} />;
  else if (tokens.data.length === 0) {
    content = (
      <EmptyPanel
        icon={<IconKey size={28} stroke={1.5} />}
        title="No collection tokens yet"
        description={`A collection token lets a program (a report, a service) read ${collection.name} without acting for a person.`}
        actions={create}
      />
    );
  } else {
    content = (
      <Stack gap="sm">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            Programs that read {collection.name} as Reader. Revoke a token as soon as its program no longer needs it.
          </Text>
          {create}
        </Group>
        <TokenTable label={`Tokens of ${collection.name}`} tokens={tokens.data} />
      </Stack>
    );
  }

  return (
    <>
      {content}
      <Modal
        opened={isCreating}
        onClose={() => setCreating(false)}
        title={`New collection token for ${collection.name}`}
        size="lg"
        centered
        closeOnClickOutside={false}
      >
        {isCreating ? (
          <CreateCollectionTokenForm collection={collection} settings={settings} onClose={() => setCreating(false)} />
        ) : null}
      </Modal>
    </>
  );
}
