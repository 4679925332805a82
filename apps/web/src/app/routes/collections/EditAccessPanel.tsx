import { Text } from '@mantine/core';
import type { CollectionDetail } from '@datalab/contract/api/collections';
import { paths } from '@datalab/contract/paths';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { AccessEditor } from '../../../features/data-roles/components/AccessEditor.tsx';
import { GroupPicker } from '../../../features/user-groups/components/GroupPicker.tsx';
import { UserPicker } from '../../../features/users/components/UserPicker.tsx';

/** Grant, change and withdraw roles, with the users' and groups' own pickers. */
export function EditAccessPanel({ collection }: { collection: CollectionDetail }) {
  const currentUser = useCurrentUser();
  if (!collection.can.manageRoles) {
    return (
      <Text size="sm" c="dimmed">
        Only the collection&apos;s owners and administrators change who has access.
      </Text>
    );
  }
  if (!currentUser.data) return <PageLoader label="Loading your account" />;
  return (
    <AccessEditor
      uid={collection.uid}
      collectionName={collection.name}
      currentUserId={currentUser.data.id}
      groupHref={currentUser.data.permissions.canManageUsers ? (id) => paths.userGroup(id, 'members') : undefined}
      renderUserPicker={(props) => <UserPicker {...props} />}
      renderGroupPicker={(props) => <GroupPicker {...props} />}
    />
  );
}
