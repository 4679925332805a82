import { Divider, Loader, Paper, Stack } from '@mantine/core';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCollectionDataRoles } from '../api/get-collection-data-roles.ts';
import { useSetUserDataRole } from '../api/put-user-data-role.ts';
import { useSetGroupDataRole } from '../api/put-user-group-data-role.ts';
import { AccessSection } from './AccessSection.tsx';
import type { AccessEditing } from './AccessTable.tsx';
import { groupRows, userRows, type RowOptions } from './access-rows.ts';
import { GrantRoleForm, type Grantee } from './GrantRoleForm.tsx';
import type { PickerSlot } from '../../../components/pickers/picker-slot.ts';

export interface AccessEditorProps extends RowOptions {
  uid: string;
  collectionName: string;
  renderUserPicker: PickerSlot;
  renderGroupPicker: PickerSlot;
}

/** Grant, change and withdraw roles on a collection. Refusals (the last Owner) come as the API client's toasts. */
export function AccessEditor({
  uid,
  collectionName,
  renderUserPicker,
  renderGroupPicker,
  ...options
}: AccessEditorProps) {
  const roles = useCollectionDataRoles(uid);
  const setUserRole = useSetUserDataRole();
  const setGroupRole = useSetGroupDataRole();

  if (roles.isPending) return <Loader size="sm" aria-label="Loading access" />;
  if (roles.isError) return <InlineError error={roles.error} />;

  const change = async (kind: Grantee, id: number, role: DataRole | null) => {
    if (kind === 'user') await setUserRole.mutateAsync({ userId: id, collectionUid: uid, role });
    else await setGroupRole.mutateAsync({ groupId: id, collectionUid: uid, role });
  };
  const nameOf = (kind: Grantee, id: number) =>
    kind === 'user'
      ? roles.data.users.find((r) => r.user.id === id)?.user.name
      : roles.data.groups.find((r) => r.group.id === id)?.group.name;
  const handle = (kind: Grantee, id: number, role: DataRole | null) =>
    change(kind, id, role).then(() => {
      const who = nameOf(kind, id) ?? `The ${kind}`;
      notifySuccess(
        role ? `${who} is now ${role} on ${collectionName}` : `${who} no longer has a role on ${collectionName}`,
      );
    });
  const quietly = (promise: Promise<unknown>) => void promise.catch(() => undefined);
  const isBusy = setUserRole.isPending || setGroupRole.isPending;
  const editing = (kind: Grantee): AccessEditing => ({
    noun: kind,
    collectionName,
    isBusy,
    onChange: (id, role) => quietly(handle(kind, id, role)),
    onWithdraw: (id) => handle(kind, id, null),
  });
  const excludedUserIds = [
    ...roles.data.users.map((r) => r.user.id),
    ...(options.currentUserId ? [options.currentUserId] : []),
  ];

  return (
    <Stack gap="xl">
      <Paper withBorder radius="md" p="md">
        <GrantRoleForm
          renderUserPicker={renderUserPicker}
          renderGroupPicker={renderGroupPicker}
          excludedUserIds={excludedUserIds}
          excludedGroupIds={roles.data.groups.map((r) => r.group.id)}
          onGrant={async ({ kind, id, name, role }) => {
            await change(kind, id, role);
            notifySuccess(`${name} is now ${role} on ${collectionName}`);
          }}
        />
      </Paper>
      <AccessSection
        title="People"
        caption="People with a role"
        rows={userRows(roles.data, options)}
        empty="Nobody holds a role here directly."
        editing={editing('user')}
      />
      <Divider />
      <AccessSection
        title="Groups"
        caption="Groups with a role"
        rows={groupRows(roles.data, options)}
        empty="No group holds a role here yet. Granting one reaches all its members at once."
        editing={editing('group')}
      />
    </Stack>
  );
}
