import { Accordion, Badge, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { HttpExchangeView } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { formatMs, plural } from '../../lib/format.ts';
import { exchangeTitle, isFailure, outcomeText, replyText, requestText } from './exchange-text.ts';
import { ExchangeTimings } from './ExchangeTimings.tsx';

// The upstream exchanges of one Web API run (Try, a connection test, the playground, a developer-mode call): each
// request as sent and its reply's status, headers and timings. Secrets arrive masked by the server (product §9's run of
// asterisks): nothing here ever had them.

interface ExchangeListProps {
  exchanges: readonly HttpExchangeView[];
  /** How many more the server did not send back (a long paged run). */
  omitted?: number;
  /** Names the list for assistive technology. */
  label?: string;
}

const PREVIEW_STYLE = { overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;

function ExchangeBody({ exchange }: { exchange: HttpExchangeView }) {
  return (
    <Stack gap="sm">
      {exchange.error ? (
        <Text size="sm" c="red.8">
          {exchange.error}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            Request
          </Text>
          {/* Scrollable blocks take the keyboard focus so they can be scrolled without a mouse (WCAG 2.1.1). */}
          <Code block tabIndex={0} mah={320} style={PREVIEW_STYLE}>
            {requestText(exchange)}
          </Code>
        </Stack>
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            Reply
          </Text>
          <Code block tabIndex={0} mah={320} style={PREVIEW_STYLE}>
            {replyText(exchange)}
          </Code>
        </Stack>
      </SimpleGrid>
      <ExchangeTimings exchange={exchange} />
    </Stack>
  );
}

export function ExchangeList({ exchanges, omitted = 0, label = 'Upstream exchanges' }: ExchangeListProps) {
  if (exchanges.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No request was sent upstream.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="xs" c="dimmed">
        Secrets and headers named like secrets read {texts.maskedSecret}.
      </Text>
      <Accordion variant="separated" multiple defaultValue={exchanges.length === 1 ? ['0'] : []} aria-label={label}>
        {exchanges.map((exchange, index) => (
          <Accordion.Item key={index} value={String(index)}>
            <Accordion.Control>
              <Group gap="xs" wrap="nowrap" justify="space-between" pr="xs">
                <Text size="sm" ff="monospace" truncate="end" title={exchangeTitle(exchange)}>
                  {exchangeTitle(exchange)}
                </Text>
                <Group gap={6} wrap="nowrap">
                  <Badge variant="light" color={isFailure(exchange) ? 'red' : 'teal'} tt="none">
                    {outcomeText(exchange)}
                  </Badge>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatMs(exchange.timings.totalMs)}
                  </Text>
                </Group>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <ExchangeBody exchange={exchange} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      {omitted > 0 ? (
        <Text size="xs" c="dimmed">
          {plural(omitted, 'more exchange')} not shown.
        </Text>
      ) : null}
    </Stack>
  );
}
