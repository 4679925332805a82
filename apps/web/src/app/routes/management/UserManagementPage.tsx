import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { IconSearchOff, IconUsers } from '@tabler/icons-react';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { SearchWidget } from '../../../components/search/SearchWidget.tsx';
import { useSearchState } from '../../../components/search/use-search-state.ts';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { UserEffectiveRoles } from '../../../features/data-roles/components/UserEffectiveRoles.tsx';
import { useUsers } from '../../../features/users/api/get-users.ts';
import { UserDrawer } from '../../../features/users/components/UserDrawer.tsx';
import { UserTable } from '../../../features/users/components/UserTable.tsx';
import { plural } from '../../../lib/format.ts';

const PAGE_SIZE = 20;

export function UserManagementPage() {
  const { search, page, setSearch, setPage, clampToTotal } = useSearchState();
  const users = useUsers({ search, page, pageSize: PAGE_SIZE });
  const currentUser = useCurrentUser();
  const [openUserId, setOpenUserId] = useState<number | null>(null);
  const totalCount = users.data?.totalCount;
  useEffect(() => {
    if (totalCount !== undefined) clampToTotal(totalCount, PAGE_SIZE);
  }, [totalCount, clampToTotal]);
  // The drawer shows the user as the list has them now (a permission switched, a group joined).
  const openUser = users.data?.items.find((user) => user.id === openUserId) ?? null;

  let content;
  if (users.isPending) content = <PageLoader label="Loading users" />;
  else if (users.isError) content = <InlineError error={users.error} />;
  else if (users.data.items.length === 0) {
    content = search ? (
      <EmptyPanel
        icon={<IconSearchOff size={28} stroke={1.5} />}
        title={`No users match “${search}”`}
        description="Search by name, username or e-mail address. People appear here after they first sign in."
      />
    ) : (
      <EmptyPanel
        icon={<IconUsers size={28} stroke={1.5} />}
        title="No users yet"
        description="People appear here after they first sign in to Data Lab."
      />
    );
  } else {
    content = (
      <>
        <Text size="sm" c="dimmed">
          {plural(users.data.totalCount, 'user')}
          {search ? ` matching “${search}”` : ''}
        </Text>
        <UserTable users={users.data.items} currentUserId={currentUser.data?.id} onOpen={(user) => setOpenUserId(user.id)} />
      </>
    );
  }

  return (
    <PageFrame
      title="User management"
      description="Everyone who has signed in to Data Lab: their groups, their roles on collections, and who may manage users."
    >
      <SearchWidget
        value={search}
        onSearch={setSearch}
        page={page}
        totalPages={totalCount === undefined ? 1 : Math.ceil(totalCount / PAGE_SIZE)}
        onPageChange={setPage}
        placeholder="Search users by name, username or e-mail"
      >
        {content}
      </SearchWidget>
      <UserDrawer user={openUser} onClose={() => setOpenUserId(null)} roles={openUser ? <UserEffectiveRoles userId={openUser.id} /> : null} />
    </PageFrame>
  );
}
