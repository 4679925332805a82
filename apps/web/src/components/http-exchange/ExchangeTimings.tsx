import { Table } from '@mantine/core';
import type { HttpExchangeView } from '@datalab/contract/api/web-api';
import { formatMs } from '../../lib/format.ts';

// Where one upstream exchange's time went. A stage the engine did not measure (a reused connection has no connect
// time) says so rather than showing 0.

const STAGES = [
  { key: 'dnsMs', label: 'Resolving and checking the host' },
  { key: 'connectMs', label: 'Connecting (TCP and TLS)' },
  { key: 'headersMs', label: 'Waiting for the reply headers' },
  { key: 'bodyMs', label: 'Reading the reply body' },
] as const;

const bytes = (count: number) => `${count.toLocaleString()} bytes`;

export function ExchangeTimings({ exchange }: { exchange: HttpExchangeView }) {
  const { timings } = exchange;
  return (
    <Table fz="sm" verticalSpacing={4}>
      <Table.Tbody>
        {STAGES.map((stage) => {
          const ms = timings[stage.key];
          const missing = stage.key === 'connectMs' ? 'A kept-alive connection was reused' : 'Not measured';
          return (
            <Table.Tr key={stage.key}>
              <Table.Th scope="row" fw={500}>
                {stage.label}
              </Table.Th>
              <Table.Td>{ms === undefined ? missing : formatMs(ms)}</Table.Td>
            </Table.Tr>
          );
        })}
        <Table.Tr>
          <Table.Th scope="row" fw={500}>
            Total
          </Table.Th>
          <Table.Td>{formatMs(timings.totalMs)}</Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Th scope="row" fw={500}>
            Sent / received
          </Table.Th>
          <Table.Td>
            {bytes(exchange.bytes.sent)} / {bytes(exchange.bytes.received)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
