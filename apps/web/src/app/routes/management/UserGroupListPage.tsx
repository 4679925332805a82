import { useEffect } from 'react';
import { Button, Text } from '@mantine/core';
import { IconSearchOff, IconUsersGroup, IconUsersPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { SearchWidget } from '../../../components/search/SearchWidget.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useUserGroups } from '../../../features/user-groups/api/get-user-groups.ts';
import { UserGroupTable } from '../../../features/user-groups/components/UserGroupTable.tsx';
import { plural } from '../../../lib/format.ts';

const PAGE_SIZE = 20;

export function UserGroupListPage() {
  const { search, page, setSearch, setPage, clampToTotal } = useSearchState();
  const groups = useUserGroups({ search, page, pageSize: PAGE_SIZE });
  const totalCount = groups.data?.totalCount;
  useEffect(() => {
    if (totalCount !== undefined) clampToTotal(totalCount, PAGE_SIZE);
  }, [totalCount, clampToTotal]);

  const newButton = (
    <Button component={Link} to={paths.userGroupCreate} leftSection={<IconUsersPlus size={18} />}>
      New group
    </Button>
  );

  let content;
  if (groups.isPending) content = <PageLoader label="Loading user groups" />;
  else if (groups.isError) content = <InlineError error={groups.error} />;
  else if (groups.data.items.length === 0) {
    content = search ? (
      <EmptyPanel
        icon={<IconSearchOff size={28} stroke={1.5} />}
        title={`No groups match “${search}”`}
        description="Search by a part of the group's name, or clear the search to see them all."
        actions={
          <Button variant="default" size="xs" onClick={() => setSearch('')}>
            Clear search
          </Button>
        }
      />
    ) : (
      <EmptyPanel
        icon={<IconUsersGroup size={28} stroke={1.5} />}
        title="No user groups yet"
        description="Create a group, add people to it, and grant it a role on a collection to give them all access at once."
        actions={newButton}
      />
    );
  } else {
    content = (
      <>
        <Text size="sm" c="dimmed">
          {plural(groups.data.totalCount, 'group')}
          {search ? ` matching “${search}”` : ''}
        </Text>
        <UserGroupTable groups={groups.data.items} />
      </>
    );
  }

  return (
    <PageFrame
      title="User group management"
      description="User groups give data roles to many people at once; groups can contain other groups, whose members then count as theirs."
      actions={newButton}
    >
      <SearchWidget
        value={search}
        onSearch={setSearch}
        page={page}
        totalPages={totalCount === undefined ? 1 : Math.ceil(totalCount / PAGE_SIZE)}
        onPageChange={setPage}
        placeholder="Search groups by name"
      >
        {content}
      </SearchWidget>
    </PageFrame>
  );
}
