import { Button, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { NewConnectionForm } from '../../../features/connections/components/ConnectionForm.tsx';
import { NewWebApiConnectionForm } from '../../../features/connections/components/WebApiConnectionForm.tsx';

// product §2 routes no /connection/create screen, so a collection's Owners create connections from its Connections
// tab in edit mode (docs/decisions.md 67): the form opens over the tab — a database or a web API — and a created
// connection opens on its own edit screen, where it can be tested again, changed, and given credentials.

type Kind = 'sql' | 'webapi';
const KINDS = [
  { value: 'sql', label: 'Database (SQL)' },
  { value: 'webapi', label: 'Web API' },
];

export function NewConnectionButton({ collection }: { collection: CollectionDetail }) {
  const navigate = useNavigate();
  const currentUser = useCurrentUser();
  const [isOpen, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>('sql');
  // The server lets only an administrator who owns the collection allow internal hosts.
  const canChangeAllowedHosts = collection.myRole === 'Owner' && currentUser.data?.permissions.canManageUsers === true;
  const open = (created: { name: string }) =>
    void navigate(paths.collectionEditConnection(collection.uid, created.name));
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
        New connection
      </Button>
      <Modal opened={isOpen} onClose={() => setOpen(false)} title="New connection" size="xl" centered>
        {isOpen ? (
          <Stack gap="md">
            <SegmentedControl
              aria-label="Kind of connection"
              data={KINDS}
              value={kind}
              onChange={(value) => setKind(value === 'webapi' ? 'webapi' : 'sql')}
            />
            {kind === 'sql' ? (
              <NewConnectionForm
                collectionUid={collection.uid}
                isAdministrator={currentUser.data?.permissions.canManageUsers === true}
                onCreated={open}
                onCancel={() => setOpen(false)}
              />
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  Credentials (API keys, passwords, tokens) are added on the connection&apos;s screen once it exists.
                </Text>
                <NewWebApiConnectionForm
                  collectionUid={collection.uid}
                  canChangeAllowedHosts={canChangeAllowedHosts}
                  onCreated={open}
                  onCancel={() => setOpen(false)}
                />
              </>
            )}
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
