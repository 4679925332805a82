import { useState, type ReactNode } from 'react';
import { Button, Stack, Title } from '@mantine/core';
import { IconApi, IconKey, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Token } from '@datalab/contract/api/tokens';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { PageFrame } from '../../../components/page/PageFrame.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { usePersonalTokens } from '../../../features/tokens/api/get-personal-tokens.ts';
import { EditTokenRolesModal } from '../../../features/tokens/components/EditTokenRolesModal.tsx';
import { TokenTable } from '../../../features/tokens/components/TokenTable.tsx';
import { useGrantableCollections } from '../tokens/use-grantable-collections.ts';
import { SharedAssets } from './SharedAssets.tsx';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} fz="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function CreateButton() {
  return (
    <Button component={Link} to={paths.digitalLabTokenCreatePat} leftSection={<IconPlus size={16} />}>
      Create personal access token
    </Button>
  );
}

/** /digital-lab/tokens: the partner's own tokens, and the data assets shared with them. */
export function DigitalLabTokensPage() {
  const tokens = usePersonalTokens();
  const grantable = useGrantableCollections();
  const [editing, setEditing] = useState<Token | null>(null);

  let content;
  if (tokens.isPending) content = <PageLoader label="Loading your tokens" />;
  else if (tokens.isError) content = <InlineError error={tokens.error} />;
  else if (tokens.data.length === 0) {
    content = (
      <EmptyPanel
        icon={<IconKey size={28} stroke={1.5} />}
        title="No tokens yet"
        description="Create a personal access token, then use it in the snippets of a data asset below to call it from your own programs."
        actions={<CreateButton />}
      />
    );
  } else {
    content = (
      <TokenTable
        label="Your tokens"
        tokens={tokens.data}
        currentUserId={grantable.currentUserId}
        onEditRoles={setEditing}
      />
    );
  }

  return (
    <PageFrame
      title="Your tokens"
      description="The access tokens your programs use to call the data assets shared with you. Revoke a token as soon as a program no longer needs it."
      actions={
        <>
          <Button
            component={Link}
            to={paths.digitalLabCallingApi}
            variant="default"
            leftSection={<IconApi size={16} />}
          >
            Calling API
          </Button>
          <CreateButton />
        </>
      }
    >
      <Stack gap="xl">
        <Section title="Tokens">{content}</Section>
        <Section title="Data assets shared with you">
          <SharedAssets />
        </Section>
      </Stack>
      <EditTokenRolesModal token={editing} collections={grantable.collections} onClose={() => setEditing(null)} />
    </PageFrame>
  );
}
