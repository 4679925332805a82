import { Code, SimpleGrid, Stack, Text } from '@mantine/core';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { texts } from '@datalab/contract/texts';
import { ExchangeList } from '../../../components/http-exchange/ExchangeList.tsx';
import type { DataExchange } from '../../../lib/data-api.ts';
import { readParameters } from '../parameters/definition.ts';
import { BoundValuesTable } from './BoundValuesTable.tsx';
import type { CallOutcome } from './CallWorkbench.tsx';
import { CallTimings } from './CallTimings.tsx';
import { DetailBlock } from './DetailBlock.tsx';
import { requestPlaceholders, webRequestText } from './web-request-text.ts';

// Developer mode: the exact request (the bearer token never shown), the SQL as stored with its placeholders and,
// apart from it, the values bound to them, the timings and the raw reply. The SQL is the asset's own definition,
// which GetByUid already gives whoever may see the asset: nothing here shows more than the asset screen does. A Web
// API asset shows its stored request instead of SQL, and the call's upstream exchanges (status, headers with every
// secret masked by the server, timings).

const RAW_LIMIT = 50_000;
// Every code block may scroll, so each takes the keyboard focus (WCAG 2.1.1: a scrollable region is reachable).

/** 'content-type' → 'Content-Type' (fetch lower-cases header names). */
const headerName = (name: string) =>
  name.replace(/(^|-)([a-z])/gu, (_match, dash: string, letter: string) => dash + letter.toUpperCase());

const headerLines = (headers: DataExchange['requestHeaders']) =>
  headers.map(([name, value]) => `${headerName(name)}: ${value}`);

function requestText(exchange: DataExchange): string {
  let body = exchange.body;
  try {
    body = JSON.stringify(JSON.parse(exchange.body), null, 2);
  } catch {
    // shown as sent
  }
  return [`${exchange.method} ${exchange.url}`, ...headerLines(exchange.requestHeaders), '', body].join('\n');
}

function RawReply({ outcome }: { outcome: CallOutcome }) {
  const { exchange, raw } = outcome;
  const head = [`HTTP ${exchange.status}`, ...headerLines(exchange.responseHeaders), '', ''].join('\n');
  return (
    <>
      <Text size="xs" c="dimmed" mb={4}>
        {exchange.status} · {exchange.contentType} · {raw.length.toLocaleString()} characters
        {raw.length > RAW_LIMIT ? `, the first ${RAW_LIMIT.toLocaleString()} shown` : ''}
      </Text>
      <Code block tabIndex={0} mah={400} style={{ overflow: 'auto' }}>
        {head + raw.slice(0, RAW_LIMIT)}
      </Code>
    </>
  );
}

export function ExchangeDetails({
  asset,
  outcome,
  sent,
}: {
  asset: DataSourceDetail;
  outcome: CallOutcome;
  sent: Record<string, unknown>;
}) {
  return (
    <Stack gap="md">
      <DetailBlock title="Request">
        <Code block tabIndex={0}>
          {requestText(outcome.exchange)}
        </Code>
      </DetailBlock>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {asset.webApi ? (
          <DetailBlock title="Request definition">
            <Code block tabIndex={0} style={{ overflow: 'auto' }}>
              {webRequestText(asset.webApi)}
            </Code>
          </DetailBlock>
        ) : (
          <DetailBlock title="SQL">
            <Code block tabIndex={0} style={{ overflow: 'auto' }}>
              {asset.sql || texts.notSet}
            </Code>
          </DetailBlock>
        )}
        <DetailBlock title="Bound values">
          <BoundValuesTable
            uid={asset.uid}
            sent={sent}
            parameters={readParameters(asset.parameters)}
            usedByRequest={asset.webApi ? requestPlaceholders(asset.webApi) : undefined}
          />
        </DetailBlock>
      </SimpleGrid>
      <DetailBlock title="Timings">
        <CallTimings exchange={outcome.exchange} result={outcome.result} kind={asset.kind} />
      </DetailBlock>
      {outcome.upstream ? (
        <DetailBlock title="Upstream exchanges">
          {outcome.result.cached ? (
            <Text size="sm">Served from the cache: no request was sent upstream for this call.</Text>
          ) : (
            <ExchangeList exchanges={outcome.upstream.exchanges} omitted={outcome.upstream.exchangesOmitted} />
          )}
        </DetailBlock>
      ) : null}
      <DetailBlock title="Raw reply">
        <RawReply outcome={outcome} />
      </DetailBlock>
    </Stack>
  );
}
