import { useState } from 'react';
import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { tokenKinds, tokenStatuses, type Token } from '@datalab/contract/api/tokens';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { Pager } from '../../../components/search/Pager.tsx';
import { useFilterState } from '../../../components/search/use-filter-state.ts';
import { useTokens } from '../../../features/tokens/api/get-tokens.ts';
import { EditTokenRolesModal } from '../../../features/tokens/components/EditTokenRolesModal.tsx';
import { kindLabels, TokenTable } from '../../../features/tokens/components/TokenTable.tsx';
import { plural } from '../../../lib/format.ts';
import { useGrantableCollections } from './use-grantable-collections.ts';

const PAGE_SIZE = 20;

function CreateButton() {
  return (
    <Button component={Link} to={paths.tokenCreatePat} leftSection={<IconPlus size={16} />}>
      Create personal access token
    </Button>
  );
}

/** /tokens: every token the caller may manage: their own, their collections' (all of them for administrators). */
export function TokenListPage() {
  const { page, filter, setFilter, setPage } = useFilterState<'kind' | 'status'>();
  const kind = filter('kind', tokenKinds);
  const status = filter('status', tokenStatuses);
  const tokens = useTokens({ page, pageSize: PAGE_SIZE, kind, status });
  const grantable = useGrantableCollections();
  const [editing, setEditing] = useState<Token | null>(null);

  let content;
  if (tokens.isPending) content = <PageLoader label="Loading your tokens" />;
  else if (tokens.isError) content = <InlineError error={tokens.error} />;
  else if (tokens.data.totalCount === 0 && !kind && !status) {
    content = (
      <EmptyPanel
        icon={<IconKey size={28} stroke={1.5} />}
        title="No tokens yet"
        description="Create a personal access token to call data assets from a script, a notebook or a spreadsheet. The snippets on each data asset's page show how to use it."
        actions={<CreateButton />}
      />
    );
  } else if (tokens.data.totalCount === 0) {
    content = (
      <Text size="sm" c="dimmed">
        No tokens match these filters.
      </Text>
    );
  } else {
    const totalPages = Math.ceil(tokens.data.totalCount / PAGE_SIZE);
    content = (
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {plural(tokens.data.totalCount, 'token')}
        </Text>
        <TokenTable
          label="Tokens"
          tokens={tokens.data.items}
          showOwner
          currentUserId={grantable.currentUserId}
          onEditRoles={setEditing}
        />
        {totalPages > 1 ? <Pager page={page} totalPages={totalPages} onPageChange={setPage} /> : null}
      </Stack>
    );
  }

  return (
    <PageFrame
      title="Tokens"
      description="Access tokens let programs call data assets through the calling layer without you signing in. A token can never do more than its owner: its roles only narrow yours."
      actions={<CreateButton />}
    >
      <Stack gap="md">
        <Group gap="md" align="flex-end">
          <NativeSelect
            label="Kind"
            w={180}
            value={kind ?? ''}
            onChange={(event) => setFilter('kind', event.currentTarget.value || undefined)}
            data={[{ value: '', label: 'All kinds' }, ...tokenKinds.map((k) => ({ value: k, label: kindLabels[k] }))]}
          />
          <NativeSelect
            label="Status"
            w={180}
            value={status ?? ''}
            onChange={(event) => setFilter('status', event.currentTarget.value || undefined)}
            data={[{ value: '', label: 'All statuses' }, ...tokenStatuses]}
          />
        </Group>
        {content}
      </Stack>
      <EditTokenRolesModal token={editing} collections={grantable.collections} onClose={() => setEditing(null)} />
    </PageFrame>
  );
}
