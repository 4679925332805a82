import { useState } from 'react';
import { Button, Group, Pagination, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { IconRestore } from '@tabler/icons-react';
import type { AssetVersionSummary } from '@datalab/contract/api/asset-versions';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAssetVersion } from '../api/get-asset-version.ts';
import { useAssetVersions, VERSIONS_PAGE_SIZE } from '../api/get-asset-versions.ts';
import { useRestoreAssetVersion } from '../api/restore-asset-version.ts';
import { VersionDiff } from './VersionDiff.tsx';

// The History tab of an asset's editor: its versions newest first (who, when, what changed), any two of them
// compared side by side, and Restore, which saves an old version again as a new one after a confirmation.

export interface AssetHistoryProps {
  uid: string;
  /** After a restore: the editor shows the restored definition. */
  onRestored: (version: number) => void;
}

function Comparison({ uid, before, after }: { uid: string; before: number; after: number }) {
  const left = useAssetVersion(uid, before);
  const right = useAssetVersion(uid, after);
  if (left.isPending || right.isPending) return <PageLoader label="Loading the versions" />;
  if (left.error || right.error) return <InlineError error={(left.error ?? right.error) as Error} />;
  return <VersionDiff before={left.data} after={right.data} />;
}

function RestoreButton({
  uid,
  version,
  onRestored,
}: {
  uid: string;
  version: number;
  onRestored: (v: number) => void;
}) {
  const restore = useRestoreAssetVersion();
  return (
    <ConfirmAction
      title={`Restore version ${version}`}
      message={`The asset's definition becomes version ${version}'s again, saved as a new version. Its uid, tokens and links stay the same.`}
      confirmLabel="Restore this version"
      confirmColor="blue"
      onConfirm={async () => {
        const restored = await restore.mutateAsync({ uid, version });
        onRestored(restored.version);
      }}
    >
      {(open) => (
        <Button size="xs" variant="default" leftSection={<IconRestore size={14} />} onClick={open}>
          Restore
        </Button>
      )}
    </ConfirmAction>
  );
}

const who = (v: AssetVersionSummary) => v.savedBy?.name ?? 'Unknown';

export function AssetHistory({ uid, onRestored }: AssetHistoryProps) {
  const [page, setPage] = useState(1);
  const versions = useAssetVersions(uid, page);
  const [picked, setPicked] = useState<{ before: number; after: number } | null>(null);
  if (versions.isPending) return <PageLoader label="Loading the history" />;
  if (versions.error) return <InlineError error={versions.error} />;
  const { items, totalCount } = versions.data;
  const newest = page === 1 ? items[0]?.version : undefined;
  const latest = newest ?? totalCount;
  const compared = picked ?? { before: Math.max(1, latest - 1), after: latest };
  const options = Array.from({ length: latest }, (_, i) => String(latest - i));
  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" aria-label="Versions">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={80}>Version</Table.Th>
                <Table.Th>Saved</Table.Th>
                <Table.Th>By</Table.Th>
                <Table.Th>What changed</Table.Th>
                <Table.Th w={120} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((v) => (
                <Table.Tr key={v.version}>
                  <Table.Td>{v.version}</Table.Td>
                  <Table.Td>{formatDateTime(v.savedAt)}</Table.Td>
                  <Table.Td>{who(v)}</Table.Td>
                  <Table.Td>{v.summary}</Table.Td>
                  <Table.Td>
                    {v.version === newest ? (
                      <Text size="xs" c="dimmed">
                        Current
                      </Text>
                    ) : (
                      <RestoreButton uid={uid} version={v.version} onRestored={onRestored} />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      {totalCount > VERSIONS_PAGE_SIZE ? (
        <Pagination total={Math.ceil(totalCount / VERSIONS_PAGE_SIZE)} value={page} onChange={setPage} />
      ) : null}
      {latest > 1 ? (
        <Stack gap="sm">
          <Group align="end" gap="sm">
            <Select
              label="Compare version"
              data={options}
              value={String(compared.before)}
              onChange={(value) => value && setPicked({ ...compared, before: Number(value) })}
              allowDeselect={false}
              w={160}
            />
            <Select
              label="with version"
              data={options}
              value={String(compared.after)}
              onChange={(value) => value && setPicked({ ...compared, after: Number(value) })}
              allowDeselect={false}
              w={160}
            />
          </Group>
          <Comparison uid={uid} before={compared.before} after={compared.after} />
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          One version so far: each save that changes the asset adds one.
        </Text>
      )}
    </Stack>
  );
}
