import { Button, Modal } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { NewConnectionForm } from '../../../features/connections/components/ConnectionForm.tsx';

// SPEC §2 routes no /connection/create screen, so a collection's Owners create connections from its Connections
// tab in edit mode (docs/decisions.md 67): the form opens over the tab, and a created connection opens on its
// own edit screen, where it can be tested again and changed.

export function NewConnectionButton({ collectionUid }: { collectionUid: string }) {
  const navigate = useNavigate();
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
        New connection
      </Button>
      <Modal opened={isOpen} onClose={() => setOpen(false)} title="New connection" size="lg" centered>
        {isOpen ? (
          <NewConnectionForm
            collectionUid={collectionUid}
            onCreated={(created) => void navigate(paths.collectionEditConnection(collectionUid, created.name))}
            onCancel={() => setOpen(false)}
          />
        ) : null}
      </Modal>
    </>
  );
}
