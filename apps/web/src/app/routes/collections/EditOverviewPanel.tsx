import { Alert, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { createCollection as collectionBody, type CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { NameDescriptionForm } from '../../../components/forms/NameDescriptionForm.tsx';
import { DeleteCollectionZone } from '../../../features/collections/components/DeleteCollectionZone.tsx';
import { useUpdateCollection } from '../../../features/collections/api/update-collection.ts';
import { notifySuccess } from '../../../lib/notify.ts';

/** Name and description (Owners), and the danger zone. An administrator without a role sees them read-only. */
export function EditOverviewPanel({ collection }: { collection: CollectionDetail }) {
  const navigate = useNavigate();
  const update = useUpdateCollection(collection.uid);
  return (
    <Stack gap="xl">
      {collection.can.edit ? null : (
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} maw={640}>
          Only the collection&apos;s owners change its details. As an administrator you decide who has access, on the
          Access tab.
        </Alert>
      )}
      <Paper withBorder radius="md" p="lg" maw={640}>
        <Stack gap="md">
          <Title order={2} fz="h4">
            Details
          </Title>
          <NameDescriptionForm
            key={collection.updatedAt.getTime()}
            schema={collectionBody}
            initialValues={{ name: collection.name, description: collection.description }}
            submitLabel="Save changes"
            requireChange
            readOnly={!collection.can.edit}
            onSubmit={async (values) => {
              await update.mutateAsync(values);
              notifySuccess('Collection saved');
            }}
          />
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg" maw={640}>
        <Stack gap="sm">
          <Title order={2} fz="h4">
            AI agents (MCP)
          </Title>
          <Text size="sm" c="dimmed">
            The data assets of this collection that their editors made available to AI agents are tools of the MCP
            endpoint, for the AI assistants of people and tokens that may call them. Off: none of them is.
          </Text>
          <Switch
            label="Offer this collection's data assets to AI agents"
            checked={collection.mcpEnabled}
            disabled={!collection.can.edit || update.isPending}
            onChange={async (event) => {
              const mcpEnabled = event.currentTarget.checked;
              await update.mutateAsync({ name: collection.name, description: collection.description, mcpEnabled });
              notifySuccess(
                mcpEnabled ? 'AI agents may use this collection' : 'AI agents no longer use this collection',
              );
            }}
          />
        </Stack>
      </Paper>
      {collection.can.delete ? (
        <DeleteCollectionZone
          uid={collection.uid}
          name={collection.name}
          onDeleted={() => {
            notifySuccess(`Collection ${collection.name} deleted`);
            void navigate(paths.collections, { replace: true });
          }}
        />
      ) : null}
    </Stack>
  );
}
