import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { RecentCall } from '@datalab/contract/api/data-sources';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { useRecentCalls } from '../api/get-recent-calls.ts';
import { formatMs } from './server-timing.ts';

// The asset's latest calls, from the usage records: a Reader's own, everyone's (with who called) for the
// collection's Editors and Owners and for administrators. Records are written in batches, a moment after a call.

function StatusBadge({ status }: { status: number }) {
  const color = status < 300 ? 'teal' : status < 500 ? 'orange' : 'red';
  return (
    <Badge variant="light" color={color}>
      {status}
    </Badge>
  );
}

/** Who called: a person (with a token, said so), a collection token, or an account since removed. */
function callerText(call: RecentCall): string {
  if (call.caller) return call.viaToken ? `${call.caller.name} (token)` : call.caller.name;
  return call.viaToken ? 'A collection token' : 'A removed account';
}

function CallRow({ call, showCaller }: { call: RecentCall; showCaller: boolean }) {
  return (
    <Table.Tr>
      <Table.Td>{formatDateTime(call.at)}</Table.Td>
      {showCaller ? <Table.Td>{callerText(call)}</Table.Td> : null}
      <Table.Td>
        <StatusBadge status={call.status} />
      </Table.Td>
      <Table.Td ta="right">{call.rows.toLocaleString()}</Table.Td>
      <Table.Td ta="right">{formatBytes(call.bytes)}</Table.Td>
      <Table.Td ta="right">{formatMs(call.durationMs)}</Table.Td>
      <Table.Td>{call.cacheHit ? 'Hit' : 'No'}</Table.Td>
      <Table.Td>{call.format.toUpperCase()}</Table.Td>
    </Table.Tr>
  );
}

export function RecentCalls({ uid }: { uid: string }) {
  const calls = useRecentCalls(uid);
  const refresh = (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconRefresh size={14} />}
      loading={calls.isFetching}
      onClick={() => void calls.refetch()}
    >
      Refresh
    </Button>
  );
  if (calls.isPending) return <Text size="sm">Loading recent calls…</Text>;
  if (calls.isError) return <InlineError error={calls.error} />;
  const { scope, items } = calls.data;
  const showCaller = scope === 'everyone';
  return (
    <>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed">
          {showCaller ? 'The latest calls of this asset, by anyone.' : 'Your latest calls of this asset.'} A call shows
          up here a moment after it is made.
        </Text>
        {refresh}
      </Group>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          No calls yet. Call this asset from the portal or a program and the call is listed here.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Recent calls">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                {showCaller ? <Table.Th>Caller</Table.Th> : null}
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Rows</Table.Th>
                <Table.Th ta="right">Size</Table.Th>
                <Table.Th ta="right">Duration</Table.Th>
                <Table.Th>Cache</Table.Th>
                <Table.Th>Format</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((call) => (
                <CallRow key={call.id} call={call} showCaller={showCaller} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
