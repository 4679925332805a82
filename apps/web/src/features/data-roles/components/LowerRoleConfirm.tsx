import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { DataRole } from '@datalab/contract/api/data-roles';

/** What a role lets its holder do, for confirmations that name what is lost. */
const powers: Record<DataRole, string> = {
  Owner: 'change the collection, its connections and who has access',
  Editor: 'create and change its data assets',
  Reader: 'see and call its data assets',
};

export interface PendingLowering {
  name: string;
  from: DataRole;
  to: DataRole;
  /** 'group': its members lose it too. */
  noun: string;
  onConfirm: () => void;
}

/** Asks before a role is lowered (Owner → Reader), saying what its holder can no longer do. */
export function LowerRoleConfirm({
  pending,
  collectionName,
  onClose,
}: {
  pending: PendingLowering | null;
  collectionName: string;
  onClose: () => void;
}) {
  return (
    <Modal opened={pending !== null} onClose={onClose} title="Lower the role" centered>
      {pending ? (
        <Stack gap="lg">
          <Text size="sm">
            {pending.name} goes from {pending.from} to {pending.to} on <strong>{collectionName}</strong>
            {pending.noun === 'group' ? ', and so do its members unless they hold a role another way' : ''}: they can no
            longer {powers[pending.from]}, only {powers[pending.to]}.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                pending.onConfirm();
                onClose();
              }}
            >
              Lower to {pending.to}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
