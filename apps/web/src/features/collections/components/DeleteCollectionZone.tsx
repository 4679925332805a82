import { useState } from 'react';
import { Button, Code, Group, List, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getCollectionDependents } from '@datalab/contract/api/dependents';
import { describeGroup } from '../../../components/confirm/DeleteWithDependents.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { apiCall } from '../../../lib/api-client.ts';
import { collectionKeys } from '../keys.ts';
import { IconTrash } from '@tabler/icons-react';
import { useDeleteCollection } from '../api/delete-collection.ts';

export interface DeleteCollectionZoneProps {
  uid: string;
  name: string;
  onDeleted: () => void;
}

/** The danger zone: deleting asks for the collection's exact name first. */
export function DeleteCollectionZone({ uid, name, onDeleted }: DeleteCollectionZoneProps) {
  const [isOpen, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const deletion = useDeleteCollection(uid);
  const dependents = useQuery({
    queryKey: [...collectionKeys.detail(uid), 'dependents'],
    queryFn: ({ signal }) => apiCall(getCollectionDependents, { params: { uid }, signal }),
    enabled: isOpen,
    staleTime: 0,
    gcTime: 0,
  });
  const matches = typed === name;

  const close = () => {
    setOpen(false);
    setTyped('');
  };
  const handleDelete = () => deletion.mutate(undefined, { onSuccess: onDeleted });

  return (
    <Paper withBorder radius="md" p="lg" maw={640} style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap="sm">
        <Title order={2} fz="h4" c="red.8">
          Danger zone
        </Title>
        <Group justify="space-between" wrap="nowrap" gap="lg">
          <Text size="sm">
            Deleting the collection removes its data assets, connections and roles, and revokes its tokens. It cannot be
            undone.
          </Text>
          <Button
            color="red"
            variant="outline"
            leftSection={<IconTrash size={16} />}
            onClick={() => setOpen(true)}
            style={{ flexShrink: 0 }}
          >
            Delete collection
          </Button>
        </Group>
      </Stack>
      <Modal opened={isOpen} onClose={close} title="Delete collection" centered>
        <Stack gap="md">
          <Text size="sm">
            This deletes <strong>{name}</strong> with everything it holds.
          </Text>
          {dependents.data && dependents.data.removes.length > 0 ? (
            <List size="sm" spacing={4} aria-label="Deleted with it">
              {dependents.data.removes.map((group) => (
                <List.Item key={group.kind}>{describeGroup(group)}</List.Item>
              ))}
            </List>
          ) : null}
          {dependents.error ? <InlineError error={dependents.error} /> : null}
          <Text size="sm">To confirm, type its name:</Text>
          <Code block>{name}</Code>
          <TextInput
            label="Collection name"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={deletion.isPending}>
              Cancel
            </Button>
            <Button color="red" disabled={!matches} loading={deletion.isPending} onClick={handleDelete}>
              Delete this collection
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
