import { Button } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import type { Token } from '@datalab/contract/api/tokens';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useRevokeToken } from '../api/revoke-token.ts';

/** Revoke, after a confirmation that says what stops working. */
export function RevokeTokenButton({ token }: { token: Pick<Token, 'id' | 'name' | 'kind'> }) {
  const revoke = useRevokeToken();
  const users = token.kind === 'collection' ? 'Programs reading this collection with it' : 'Programs that use it';
  return (
    <ConfirmAction
      title="Revoke token"
      message={
        <>
          Revoke “{token.name}”? {users} get 401 Unauthenticated from their very next call, on every server. A revoked
          token cannot be used again: create a new one if a program still needs access.
        </>
      }
      confirmLabel="Revoke token"
      onConfirm={async () => {
        await revoke.mutateAsync(token.id);
        notifySuccess(`Token “${token.name}” revoked`);
      }}
    >
      {(open) => (
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconBan size={14} />}
          onClick={open}
          aria-label={`Revoke ${token.name}`}
        >
          Revoke
        </Button>
      )}
    </ConfirmAction>
  );
}
