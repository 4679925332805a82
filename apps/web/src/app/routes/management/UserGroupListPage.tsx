import { Button } from '@mantine/core';
import { IconUsersGroup, IconUsersPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { userGroupSortColumns } from '@datalab/contract/api/user-groups';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useSortState } from '../../../components/search/use-sort-state.ts';
import { useUserGroups } from '../../../features/user-groups/api/get-user-groups.ts';
import { UserGroupTable } from '../../../features/user-groups/components/UserGroupTable.tsx';

const PAGE_SIZE = 20;

export function UserGroupListPage() {
  const searchState = useSearchState();
  const { search, page } = searchState;
  const sort = useSortState(userGroupSortColumns, 'name');
  const groups = useUserGroups({
    search,
    page,
    pageSize: PAGE_SIZE,
    sortBy: sort.sortBy,
    sortDirection: sort.sortDirection,
  });

  const newButton = (
    <Button component={Link} to={paths.userGroupCreate} leftSection={<IconUsersPlus size={18} />}>
      New group
    </Button>
  );

  return (
    <PageFrame
      title="User group management"
      description="User groups give data roles to many people at once; groups can contain other groups, whose members then count as theirs."
      actions={newButton}
    >
      <PagedList
        state={searchState}
        pageSize={PAGE_SIZE}
        query={groups}
        placeholder="Search groups by name"
        loadingLabel="Loading user groups"
        noun="group"
        noMatch={{
          title: `No groups match “${search}”`,
          description: "Search by a part of the group's name, or clear the search to see them all.",
          canClear: true,
        }}
        empty={
          <EmptyPanel
            icon={<IconUsersGroup size={28} stroke={1.5} />}
            title="No user groups yet"
            description="Create a group, add people to it, and grant it a role on a collection to give them all access at once."
            actions={newButton}
          />
        }
      >
        {(items) => <UserGroupTable groups={items} sort={sort} />}
      </PagedList>
    </PageFrame>
  );
}
