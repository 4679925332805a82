import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DependentGroup, DependentKind, Dependents } from '@datalab/contract/api/dependents';
import { InlineError } from '../error/InlineError.tsx';

const nouns: Record<DependentKind, [one: string, many: string]> = {
  dataAsset: ['data asset', 'data assets'],
  sqlConnection: ['SQL connection', 'SQL connections'],
  webApiConnection: ['Web API connection', 'Web API connections'],
  credential: ['credential', 'credentials'],
  token: ['collection token (revoked)', 'collection tokens (revoked)'],
  download: ['download and its file', 'downloads and their files'],
  cachedResult: ['cached result', 'cached results'],
};

/** "3 data assets: Orders, Regions, Sales" — counted things (downloads, cache) without names. */
export function describeGroup(group: DependentGroup): string {
  const [one, many] = nouns[group.kind];
  const head = `${group.count.toLocaleString('en-US')} ${group.count === 1 ? one : many}`;
  if (group.items.length === 0) return head;
  const more = group.count > group.items.length ? `, and ${group.count - group.items.length} more` : '';
  return `${head}: ${group.items.map((item) => item.name).join(', ')}${more}`;
}

export interface DeleteWithDependentsProps {
  /** What is deleted, in words: 'data asset', 'SQL connection', … */
  what: string;
  name: string;
  /** The query key of its Dependents call (fetched each time the dialog opens). */
  queryKey: readonly unknown[];
  loadDependents: (signal: AbortSignal) => Promise<Dependents>;
  /** The delete call; a 409 (something depends on it since) is shown in the dialog, not as a toast. */
  onDelete: () => Promise<unknown>;
  onDeleted: () => void;
  /** Renders the control that opens the dialog. */
  children: (open: () => void) => ReactNode;
}

/**
 * Deleting something others hang on: the dialog first asks the server what would go with it (assets, tokens,
 * downloads, cached results) and what still depends on it. While something depends on it, it says what and offers
 * no delete button; otherwise it lists what goes too and deletes on confirmation.
 */
export function DeleteWithDependents(props: DeleteWithDependentsProps) {
  const { what, name, queryKey, loadDependents, onDelete, onDeleted, children } = props;
  const [isOpen, setOpen] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Error | null>(null);
  const dependents = useQuery({
    queryKey,
    queryFn: ({ signal }) => loadDependents(signal),
    enabled: isOpen,
    staleTime: 0,
    gcTime: 0,
  });
  const close = () => {
    setOpen(false);
    setFailure(null);
  };
  const handleDelete = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onDelete();
      setOpen(false);
      onDeleted();
    } catch (error) {
      setFailure(error instanceof Error ? error : new Error(String(error)));
      void dependents.refetch();
    } finally {
      setBusy(false);
    }
  };
  const data = dependents.data;
  const blocked = (data?.blockers.length ?? 0) > 0;

  return (
    <>
      {children(() => setOpen(true))}
      <Modal opened={isOpen} onClose={close} title={`Delete ${what}`} centered size="lg">
        <Stack gap="md">
          {dependents.isPending ? (
            <Group gap="sm">
              <Loader size="sm" />
              <Text size="sm">Finding what depends on {name}…</Text>
            </Group>
          ) : dependents.error ? (
            <InlineError error={dependents.error} />
          ) : blocked && data ? (
            <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="It cannot be deleted yet">
              <Text size="sm" mb="xs">
                <strong>{name}</strong> is still needed by:
              </Text>
              <List size="sm" spacing={4} aria-label="What depends on it">
                {data.blockers.map((blocker) => (
                  <List.Item key={`${blocker.kind}-${blocker.ref ?? blocker.name}`}>
                    {blocker.name} — {blocker.reason}
                  </List.Item>
                ))}
              </List>
              <Text size="sm" mt="xs">
                Change or delete those first, then delete {name}.
              </Text>
            </Alert>
          ) : data ? (
            <>
              <Text size="sm">
                This deletes <strong>{name}</strong>. It cannot be undone.
              </Text>
              {data.removes.length > 0 ? (
                <div>
                  <Text size="sm" fw={600} mb={4}>
                    Deleted with it:
                  </Text>
                  <List size="sm" spacing={4} aria-label="Deleted with it">
                    {data.removes.map((group) => (
                      <List.Item key={group.kind}>{describeGroup(group)}</List.Item>
                    ))}
                  </List>
                </div>
              ) : (
                <Text size="sm" c="dimmed">
                  Nothing else goes with it.
                </Text>
              )}
            </>
          ) : null}
          {failure ? <InlineError error={failure} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={isBusy}>
              {blocked ? 'Close' : 'Cancel'}
            </Button>
            {blocked ? null : (
              <Button color="red" onClick={() => void handleDelete()} loading={isBusy} disabled={!data}>
                Delete {what}
              </Button>
            )}
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
