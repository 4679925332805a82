import { Progress, Table, Text, Tooltip } from '@mantine/core';
import type { CallResult, DataExchange } from '../../../lib/data-api.ts';
import { formatMs, parseServerTiming } from './server-timing.ts';

// Where the call's time went: the server's own stages from the reply's Server-Timing header, then what the network
// and the browser added. A stage the server did not report is said so, never shown as 0.

const STAGES = [
  { name: 'queue', label: 'Waiting for a connection', color: 'gray.6' },
  { name: 'database', label: 'Database', color: 'blue.7' },
  { name: 'transform', label: 'Transformations', color: 'grape.7' },
  { name: 'write', label: 'Writing the reply', color: 'teal.8' },
] as const;

function serverTimingOf(exchange: DataExchange): Record<string, number> {
  const header = exchange.responseHeaders.find(([name]) => name.toLowerCase() === 'server-timing')?.[1];
  return parseServerTiming(header);
}

function StageBar({ timings }: { timings: Record<string, number> }) {
  const total = STAGES.reduce((sum, stage) => sum + (timings[stage.name] ?? 0), 0);
  if (total <= 0) return null;
  return (
    <Progress.Root size="lg" mb="sm" aria-hidden>
      {STAGES.map((stage) => {
        const ms = timings[stage.name];
        if (ms === undefined || ms <= 0) return null;
        return (
          <Tooltip key={stage.name} label={`${stage.label}: ${formatMs(ms)}`}>
            <Progress.Section value={(ms / total) * 100} color={stage.color} />
          </Tooltip>
        );
      })}
    </Progress.Root>
  );
}

function Row({ label, name, value }: { label: string; name?: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500}>
        {label}
        {name ? (
          <>
            {' '}
            <Text span size="xs" c="dimmed" ff="monospace">
              {name}
            </Text>
          </>
        ) : null}
      </Table.Th>
      <Table.Td>{value}</Table.Td>
    </Table.Tr>
  );
}

/** A Web API asset's "database" stage is the upstream's time: its requests, pages and replies. */
const stageLabel = (stage: (typeof STAGES)[number], kind: 'sql' | 'webapi') =>
  kind === 'webapi' && stage.name === 'database' ? 'Web API (upstream requests)' : stage.label;

export function CallTimings({
  exchange,
  result,
  kind = 'sql',
}: {
  exchange: DataExchange;
  result: CallResult;
  kind?: 'sql' | 'webapi';
}) {
  const timings = serverTimingOf(exchange);
  const missing = result.cached ? 'Not run: served from the cache' : 'Not reported by this connection';
  const networkMs = Math.max(0, exchange.elapsedMs - result.durationMs);
  return (
    <>
      <StageBar timings={timings} />
      <Table>
        <Table.Tbody>
          {timings['authz'] === undefined ? null : (
            <Row label="Authorization" name="authz" value={formatMs(timings['authz'])} />
          )}
          {timings['cache'] === undefined ? null : (
            <Row label="Cache lookup" name="cache" value={formatMs(timings['cache'])} />
          )}
          {STAGES.map((stage) => {
            const ms = timings[stage.name];
            return (
              <Row
                key={stage.name}
                label={stageLabel(stage, kind)}
                name={stage.name}
                value={ms === undefined ? missing : formatMs(ms)}
              />
            );
          })}
          <Row label="On the server in all" value={formatMs(result.durationMs)} />
          <Row label="Network and reading the reply" value={formatMs(networkMs)} />
          <Row label="Total, as the browser saw it" value={formatMs(exchange.elapsedMs)} />
          <Row label="Served from the cache" value={result.cached ? 'Yes' : 'No'} />
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4}>
        The server&apos;s stages come from the reply&apos;s Server-Timing header.
      </Text>
    </>
  );
}
