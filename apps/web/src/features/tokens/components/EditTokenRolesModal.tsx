import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Stack } from '@mantine/core';
import type { Token, TokenDataRoles } from '@datalab/contract/api/tokens';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useTokenDataRoles } from '../api/get-token-data-roles.ts';
import { useSetTokenDataRoles } from '../api/set-token-data-roles.ts';
import { chosenRoles, type GrantableCollection, type RoleChoice } from '../model/roles.ts';
import { RolesField } from './RolesField.tsx';

interface EditTokenRolesProps {
  token: Token;
  collections: GrantableCollection[];
  onClose: () => void;
}

/** Roles the owner's current roles narrow (the token acts with less) or that no longer count at all. */
function Narrowed({ roles }: { roles: TokenDataRoles['roles'] }) {
  const narrowed = roles.filter((r) => r.effectiveRole !== r.role);
  if (narrowed.length === 0) return null;
  return (
    <Alert color="blue" variant="light" title="Your own roles narrow this token">
      <List size="sm">
        {narrowed.map((r) => (
          <List.Item key={r.collection.uid}>
            {r.collection.name}: {r.role} on the token,{' '}
            {r.effectiveRole ? `acts as ${r.effectiveRole} now` : 'no access now (you hold no role there)'}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

function EditTokenRoles({ token, collections, onClose }: EditTokenRolesProps) {
  const current = useTokenDataRoles(token.id);
  const save = useSetTokenDataRoles();
  const grantable = new Set(collections.map((c) => c.uid));
  const [roles, setRoles] = useState<RoleChoice>(() =>
    Object.fromEntries(
      token.roles.filter((r) => grantable.has(r.collection.uid)).map((r) => [r.collection.uid, r.role]),
    ),
  );
  const [isSubmitted, setSubmitted] = useState(false);
  const error = Object.keys(roles).length === 0 ? 'At least one Role is required' : undefined;

  const handleSave = async () => {
    setSubmitted(true);
    if (error) return;
    try {
      await save.mutateAsync({ id: token.id, roles: chosenRoles(roles) });
      notifySuccess(`Roles of “${token.name}” saved`);
      onClose();
    } catch {
      // The API client has told the user why.
    }
  };

  return (
    <Stack gap="lg">
      {current.isPending ? <PageLoader label="Loading the token's roles" /> : null}
      {current.isError ? <InlineError error={current.error} /> : null}
      {current.data ? <Narrowed roles={current.data.roles} /> : null}
      <RolesField collections={collections} value={roles} onChange={setRoles} error={isSubmitted ? error : undefined} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={() => void handleSave()} loading={save.isPending}>
          Save roles
        </Button>
      </Group>
    </Stack>
  );
}

/** Changes a personal access token's roles, each at most the owner's own. */
export function EditTokenRolesModal({
  token,
  collections,
  onClose,
}: Omit<EditTokenRolesProps, 'token'> & {
  token: Token | null;
}) {
  return (
    <Modal opened={token !== null} onClose={onClose} title={token ? `Roles of ${token.name}` : ''} size="lg" centered>
      {token ? <EditTokenRoles token={token} collections={collections} onClose={onClose} /> : null}
    </Modal>
  );
}
