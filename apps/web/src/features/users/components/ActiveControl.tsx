import { Button } from '@mantine/core';
import type { UserListItem } from '@datalab/contract/api/users';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useSetUserActive } from '../api/put-user-active.ts';

/** Deactivate or reactivate a user, after a confirmation that says what it does. Not for oneself. */
export function ActiveControl({ user, isSelf }: { user: UserListItem; isSelf: boolean }) {
  const setActive = useSetUserActive();
  if (isSelf) return null;
  if (user.isActive) {
    return (
      <ConfirmAction
        title="Deactivate user"
        message={`${user.name} can no longer sign in, and their tokens are refused from the next request. Their roles and group memberships are kept, so reactivating gives their access back.`}
        confirmLabel="Deactivate"
        onConfirm={() =>
          setActive
            .mutateAsync({ userId: user.id, active: false })
            .then(() => notifySuccess(`${user.name} deactivated`))
        }
      >
        {(open) => (
          <Button size="xs" variant="default" color="red" onClick={open}>
            Deactivate
          </Button>
        )}
      </ConfirmAction>
    );
  }
  return (
    <ConfirmAction
      title="Reactivate user"
      message={`${user.name} can sign in again, with the roles and group memberships they had.`}
      confirmLabel="Reactivate"
      confirmColor="blue"
      onConfirm={() =>
        setActive.mutateAsync({ userId: user.id, active: true }).then(() => notifySuccess(`${user.name} reactivated`))
      }
    >
      {(open) => (
        <Button size="xs" variant="default" onClick={open}>
          Reactivate
        </Button>
      )}
    </ConfirmAction>
  );
}
