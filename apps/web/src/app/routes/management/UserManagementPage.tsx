import { useState } from 'react';
import { IconUsers } from '@tabler/icons-react';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PagedList } from '../../../components/search/PagedList.tsx';
import { userSortColumns } from '@datalab/contract/api/users';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useSortState } from '../../../components/search/use-sort-state.ts';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { UserEffectiveRoles } from '../../../features/data-roles/components/UserEffectiveRoles.tsx';
import { useUsers } from '../../../features/users/api/get-users.ts';
import { UserDrawer } from '../../../features/users/components/UserDrawer.tsx';
import { UserTable } from '../../../features/users/components/UserTable.tsx';

const PAGE_SIZE = 20;

export function UserManagementPage() {
  const searchState = useSearchState();
  const { search, page } = searchState;
  const sort = useSortState(userSortColumns, 'name');
  const users = useUsers({ search, page, pageSize: PAGE_SIZE, sortBy: sort.sortBy, sortDirection: sort.sortDirection });
  const currentUser = useCurrentUser();
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  // The drawer shows the user as the list has them now (a permission switched, a group joined).
  const openUser = users.data?.items.find((user) => user.id === openUserId) ?? null;

  return (
    <PageFrame
      title="User management"
      description="Everyone who has signed in to Data Lab: their groups, their roles on collections, and who may manage users."
    >
      <PagedList
        state={searchState}
        pageSize={PAGE_SIZE}
        query={users}
        placeholder="Search users by name, username or e-mail"
        loadingLabel="Loading users"
        noun="user"
        noMatch={{
          title: `No users match “${search}”`,
          description: 'Search by name, username or e-mail address. People appear here after they first sign in.',
        }}
        empty={
          <EmptyPanel
            icon={<IconUsers size={28} stroke={1.5} />}
            title="No users yet"
            description="People appear here after they first sign in to Data Lab."
          />
        }
      >
        {(items) => (
          <UserTable
            users={items}
            sort={sort}
            currentUserId={currentUser.data?.id}
            onOpen={(user) => setOpenUserId(user.id)}
          />
        )}
      </PagedList>
      <UserDrawer
        user={openUser}
        isSelf={openUser !== null && openUser.id === currentUser.data?.id}
        onClose={() => setOpenUserId(null)}
        roles={openUser ? <UserEffectiveRoles userId={openUser.id} /> : null}
      />
    </PageFrame>
  );
}
