import { ActionIcon, Badge, Button, Group, Modal, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { WebApiConnection, WebApiCredential } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { DeleteWithDependents } from '../../../components/confirm/DeleteWithDependents.tsx';
import { apiCall } from '../../../lib/api-client.ts';
import { connectionKeys } from '../keys.ts';
import { plural } from '../../../lib/format.ts';
import { getCredentialDependents } from '@datalab/contract/api/dependents';
import { useDeleteWebApiCredential } from '../api/delete-web-api-credential.ts';
import { useTestWebApiCredential } from '../api/test-web-api-connection.ts';
import { credentialKindLabels, credentialSummary } from '../model/credential-draft.ts';
import { CredentialForm } from './CredentialForm.tsx';
import { WebApiTestResult } from './WebApiTestResult.tsx';

// A stored connection's credentials: each kind's settings, its secret masked, how many assets send it; add, change,
// test (is it accepted by the web API?) and remove one no asset uses.

type Editing = { mode: 'add' } | { mode: 'edit'; credential: WebApiCredential } | null;

function CredentialRow({
  connection,
  credential,
  onEdit,
  onTest,
}: {
  connection: WebApiConnection;
  credential: WebApiCredential;
  onEdit: () => void;
  onTest: () => void;
}) {
  const remove = useDeleteWebApiCredential(connection.id);
  const isUsed = credential.assetCount > 0;
  return (
    <Table.Tr>
      <Table.Td>
        <Text fw={600} size="sm">
          {credential.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color="gray" tt="none">
          {credentialKindLabels[credential.kind]}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {credentialSummary(credential)}
        </Text>
      </Table.Td>
      <Table.Td ff="monospace">{credential.secret ?? texts.notSet}</Table.Td>
      <Table.Td>{plural(credential.assetCount, 'data asset')}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <ActionIcon variant="subtle" aria-label={`Test ${credential.name}`} onClick={onTest}>
            <IconPlugConnected size={16} />
          </ActionIcon>
          <ActionIcon variant="subtle" aria-label={`Change ${credential.name}`} onClick={onEdit}>
            <IconPencil size={16} />
          </ActionIcon>
          <DeleteWithDependents
            what="credential"
            name={credential.name}
            queryKey={[...connectionKeys.all, 'dependents', 'credential', credential.id]}
            loadDependents={(signal) =>
              apiCall(getCredentialDependents, { params: { id: String(credential.id) }, signal })
            }
            onDelete={() => remove.mutateAsync(credential.id)}
            onDeleted={() => undefined}
          >
            {(open) => (
              <Tooltip label={`Sent by ${plural(credential.assetCount, 'data asset')}`} disabled={!isUsed}>
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${credential.name}`} onClick={open}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </DeleteWithDependents>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function WebApiCredentials({ connection }: { connection: WebApiConnection }) {
  const [editing, setEditing] = useState<Editing>(null);
  const test = useTestWebApiCredential(connection.id);
  const tested = connection.credentials.find((credential) => credential.id === test.variables);
  const close = () => setEditing(null);
  return (
    <Stack gap="sm">
      {connection.credentials.length === 0 ? (
        <Text size="sm" c="dimmed">
          No credentials. Add an API key, a user and password, a bearer token or OAuth2 client credentials; each data
          asset picks the one it sends.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Sent as</Table.Th>
                <Table.Th>Secret</Table.Th>
                <Table.Th>Used by</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {connection.credentials.map((credential) => (
                <CredentialRow
                  key={credential.id}
                  connection={connection}
                  credential={credential}
                  onEdit={() => setEditing({ mode: 'edit', credential })}
                  onTest={() => test.mutate(credential.id)}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditing({ mode: 'add' })}>
          Add credential
        </Button>
        {test.isPending ? <Text size="sm">Testing {tested?.name ?? 'the credential'}…</Text> : null}
      </Group>
      {test.data ? <WebApiTestResult result={test.data} title={`Test of ${tested?.name ?? 'the credential'}`} /> : null}
      <Modal
        opened={editing !== null}
        onClose={close}
        title={editing?.mode === 'edit' ? `Change ${editing.credential.name}` : 'Add credential'}
        size="lg"
        centered
      >
        {editing ? (
          <CredentialForm
            connectionId={connection.id}
            stored={editing.mode === 'edit' ? editing.credential : undefined}
            onSaved={close}
            onCancel={close}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}
