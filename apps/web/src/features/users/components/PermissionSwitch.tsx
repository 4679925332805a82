import { Switch } from '@mantine/core';
import type { UserListItem } from '@datalab/contract/api/users';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { useSetSystemPermissions } from '../api/put-system-permissions.ts';

/** canManageUsers as a switch. Withdrawing your own asks first: the management pages close for you. */
export function PermissionSwitch({ user, isSelf }: { user: UserListItem; isSelf: boolean }) {
  const permissions = useSetSystemPermissions();
  const checked = user.permissions.canManageUsers;
  const set = (canManageUsers: boolean) => permissions.mutateAsync({ userId: user.id, canManageUsers });
  const label = `User management for ${user.name}`;

  if (isSelf && checked) {
    return (
      <ConfirmAction
        title="Withdraw your own user management"
        message="You will lose the administration pages as soon as this is saved, and only another administrator can give them back."
        confirmLabel="Withdraw from me"
        onConfirm={() => set(false)}
      >
        {(open) => <Switch aria-label={label} checked onChange={open} />}
      </ConfirmAction>
    );
  }
  return (
    <Switch
      aria-label={label}
      checked={checked}
      onChange={(event) => void set(event.currentTarget.checked).catch(() => undefined)}
    />
  );
}
