import type { ReactNode } from 'react';
import { Switch } from '@mantine/core';
import type { UserListItem } from '@datalab/contract/api/users';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { useSetSystemPermissions } from '../api/put-system-permissions.ts';

interface Consequence {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  isDangerous: boolean;
}

/** What a change of canManageUsers does, said before it is made. */
function consequence(user: UserListItem, isSelf: boolean, grant: boolean): Consequence {
  if (grant) {
    return {
      title: 'Grant user management',
      message: `${user.name} will manage every user and group, see every collection and manage its roles, and empty the cache and read the logs.`,
      confirmLabel: 'Grant',
      isDangerous: false,
    };
  }
  if (isSelf) {
    return {
      title: 'Withdraw your own user management',
      message:
        'You will lose the administration pages as soon as this is saved, and only another administrator can give them back.',
      confirmLabel: 'Withdraw from me',
      isDangerous: true,
    };
  }
  return {
    title: 'Withdraw user management',
    message: `${user.name} loses the administration pages and the collections they see only as an administrator, from their next request.`,
    confirmLabel: 'Withdraw',
    isDangerous: true,
  };
}

/** canManageUsers as a switch; every change asks first, naming what it gives or takes away. */
export function PermissionSwitch({ user, isSelf }: { user: UserListItem; isSelf: boolean }) {
  const permissions = useSetSystemPermissions();
  const checked = user.permissions.canManageUsers;
  const { title, message, confirmLabel, isDangerous } = consequence(user, isSelf, !checked);
  return (
    <ConfirmAction
      title={title}
      message={message}
      confirmLabel={confirmLabel}
      confirmColor={isDangerous ? 'red' : 'blue'}
      onConfirm={() => permissions.mutateAsync({ userId: user.id, canManageUsers: !checked })}
    >
      {(open) => <Switch aria-label={`User management for ${user.name}`} checked={checked} onChange={open} />}
    </ConfirmAction>
  );
}
