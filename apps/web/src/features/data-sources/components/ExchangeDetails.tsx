import { Card, Code, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { texts } from '@datalab/contract/texts';
import type { CallOutcome } from './CallWorkbench.tsx';

// Developer mode: the exact request, the SQL with the values bound to it shown apart (never spliced in: the driver
// binds them), the timings and the raw reply. The bearer token is never shown.

const RAW_LIMIT = 50_000;
// Every block may scroll, so each takes the keyboard focus (WCAG 2.1.1: a scrollable region is reachable).

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Title order={2} fz="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function requestText({ exchange }: CallOutcome): string {
  return [
    `${exchange.method} ${exchange.url}`,
    'Authorization: Bearer <your access token>',
    'Content-Type: application/json',
    '',
    JSON.stringify(JSON.parse(exchange.body), null, 2),
  ].join('\n');
}

function ValuesTable({ values }: { values: Record<string, unknown> }) {
  const entries = Object.entries(values);
  if (entries.length === 0) return <Text size="sm">No values sent: the server used the defaults.</Text>;
  return (
    <Table>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Parameter</Table.Th>
          <Table.Th>Value sent</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Td ff="monospace">:{name}</Table.Td>
            <Table.Td ff="monospace">{JSON.stringify(value) ?? texts.none}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function ExchangeDetails({
  outcome,
  sent,
  sql,
}: {
  outcome: CallOutcome;
  sent: Record<string, unknown>;
  sql: string;
}) {
  const { exchange, result, raw } = outcome;
  const serverMs = result.durationMs;
  const transferMs = Math.max(0, exchange.elapsedMs - serverMs);
  return (
    <Stack gap="md">
      <Block title="Request">
        <Code block tabIndex={0}>
          {requestText(outcome)}
        </Code>
      </Block>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Block title="SQL">
          <Code block tabIndex={0}>
            {sql || texts.notSet}
          </Code>
        </Block>
        <Block title="Bound values">
          <ValuesTable values={sent} />
        </Block>
      </SimpleGrid>
      <Block title="Timings">
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">On the server (validate, run, transform, write)</Table.Th>
              <Table.Td>{serverMs.toLocaleString()} ms</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Network and reading the reply</Table.Th>
              <Table.Td>{transferMs.toLocaleString()} ms</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Total, as the browser saw it</Table.Th>
              <Table.Td>{exchange.elapsedMs.toLocaleString()} ms</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">Served from the cache</Table.Th>
              <Table.Td>{result.cached ? 'Yes' : 'No'}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Block>
      <Block title="Raw reply">
        <Text size="xs" c="dimmed" mb={4}>
          {exchange.status} · {exchange.contentType} · {raw.length.toLocaleString()} characters
          {raw.length > RAW_LIMIT ? `, the first ${RAW_LIMIT.toLocaleString()} shown` : ''}
        </Text>
        <Code block tabIndex={0} mah={400} style={{ overflow: 'auto' }}>
          {raw.slice(0, RAW_LIMIT)}
        </Code>
      </Block>
    </Stack>
  );
}
