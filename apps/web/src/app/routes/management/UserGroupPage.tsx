import { Anchor, Button, Container, Group, Text } from '@mantine/core';
import { IconArrowLeft, IconBinaryTree, IconPencil, IconShieldLock, IconSitemap, IconUsers } from '@tabler/icons-react';
import { Link, Navigate, useParams } from 'react-router';
import type { UserGroupDetail } from '@datalab/contract/api/user-groups';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { NotFoundState } from '../../../components/page/NotFoundState.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { GroupBadge } from '../../../components/roles/GroupBadge.tsx';
import { RouteTabs, tabFromSegment, type RouteTab } from '../../../components/tabs/RouteTabs.tsx';
import { GroupDataRoles } from '../../../features/data-roles/components/GroupDataRoles.tsx';
import { useUserGroup } from '../../../features/user-groups/api/get-user-group.ts';
import { ChildGroups } from '../../../features/user-groups/components/ChildGroups.tsx';
import { GroupDetailsForm } from '../../../features/user-groups/components/GroupDetailsForm.tsx';
import { GroupHierarchy } from '../../../features/user-groups/components/GroupHierarchy.tsx';
import { GroupMembers } from '../../../features/user-groups/components/GroupMembers.tsx';
import { UserPicker } from '../../../features/users/components/UserPicker.tsx';
import { isNotFound } from '../../../lib/api-error.ts';

type GroupTab = 'members' | 'groups' | 'data-roles' | 'hierarchy' | 'details';

const groupTabs = (group: UserGroupDetail): RouteTab<GroupTab>[] => [
  { value: 'members', label: 'Members', icon: <IconUsers size={16} />, count: group.memberCount },
  { value: 'groups', label: 'Child groups', icon: <IconSitemap size={16} />, count: group.childCount },
  { value: 'data-roles', label: 'Data roles', icon: <IconShieldLock size={16} /> },
  { value: 'hierarchy', label: 'Hierarchy', icon: <IconBinaryTree size={16} /> },
  { value: 'details', label: 'Details', icon: <IconPencil size={16} /> },
];

const back = { to: paths.userGroups, label: 'All user groups' };

function ParentLinks({ group }: { group: UserGroupDetail }) {
  if (group.parents.length === 0) return null;
  return (
    <Group gap={6}>
      <Text size="sm" c="dimmed">
        Nested in
      </Text>
      {group.parents.map((parent) => (
        <GroupBadge key={parent.id} group={parent} />
      ))}
    </Group>
  );
}

function GroupScreen({ group, tab }: { group: UserGroupDetail; tab: GroupTab }) {
  return (
    <PageFrame
      title={group.name}
      description={group.description || 'A user group.'}
      actions={
        <Button component={Link} to={paths.userGroups} variant="default" leftSection={<IconArrowLeft size={16} />}>
          All groups
        </Button>
      }
    >
      <Group mb="md" mt={-12}>
        <ParentLinks group={group} />
      </Group>
      <RouteTabs
        label="Group sections"
        tabs={groupTabs(group)}
        value={tab}
        pathFor={(next) => paths.userGroup(group.id, next)}
      >
        {tab === 'members' ? (
          <GroupMembers
            groupId={group.id}
            groupName={group.name}
            renderUserPicker={(props) => <UserPicker {...props} />}
          />
        ) : null}
        {tab === 'groups' ? <ChildGroups groupId={group.id} groupName={group.name} /> : null}
        {tab === 'data-roles' ? <GroupDataRoles groupId={group.id} /> : null}
        {tab === 'hierarchy' ? <GroupHierarchy groupId={group.id} /> : null}
        {tab === 'details' ? <GroupDetailsForm group={group} /> : null}
      </RouteTabs>
      {tab === 'data-roles' ? (
        <Text size="sm" c="dimmed" mt="md">
          {group.parents.length > 0
            ? `These are the roles ${group.name} holds itself; its members also get those of the groups it is nested in (${group.parents.map((parent) => parent.name).join(', ')}). `
            : ''}
          Roles are granted and withdrawn on each collection&apos;s Access tab (Edit collection → Access).{' '}
          <Anchor component={Link} to={paths.collections} size="sm">
            Go to collections
          </Anchor>
        </Text>
      ) : null}
    </PageFrame>
  );
}

function GroupLoader({ id, segment }: { id: number; segment: string | undefined }) {
  const group = useUserGroup(id);
  if (group.isPending) return <PageLoader label="Loading the group" />;
  if (group.isError) {
    if (isNotFound(group.error)) return <NotFoundState what="This user group" back={back} />;
    return (
      <Container size="xl" py="xl">
        <InlineError error={group.error} />
      </Container>
    );
  }
  const tab = tabFromSegment(groupTabs(group.data), segment, 'members');
  if (tab === null) return <Navigate to={paths.userGroup(id, 'members')} replace />;
  return <GroupScreen group={group.data} tab={tab} />;
}

/** /management/user-group/{id}/{tab}. */
export function UserGroupPage() {
  const { id: idSegment, tab } = useParams();
  const id = Number(idSegment);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundState what="This user group" back={back} />;
  return <GroupLoader id={id} segment={tab} />;
}
