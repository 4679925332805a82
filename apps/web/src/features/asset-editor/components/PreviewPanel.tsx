import { Alert, Button, Code, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPlay } from '@tabler/icons-react';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { ExchangeList } from '../../../components/http-exchange/ExchangeList.tsx';
import { LazyResultGrid } from '../../../components/results/LazyResultGrid.tsx';
import { formatMs } from '../../../lib/format.ts';
import type { DraftRunResult } from '../api/preview-asset.ts';
import type { ParameterDraft } from '../model/asset-draft.ts';
import type { PlaceholderSyntax } from '../model/placeholders.ts';

interface PreviewPanelProps {
  parameters: readonly ParameterDraft[];
  syntax: PlaceholderSyntax;
  values: Record<string, string>;
  onValuesChange: (values: Record<string, string>) => void;
  /** 'Run' for SQL, 'Try' for a web request. */
  runLabel: string;
  onRun: () => void;
  isRunning: boolean;
  /** Why it cannot run yet; null when it can. */
  blocker: string | null;
  result: DraftRunResult | undefined;
  error: Error | null;
  errors: Record<string, string[]>;
}

/** Tall enough for a few rows without empty space below them, at most 320 px (then it scrolls). */
const gridHeight = (rows: number) => Math.min(320, 48 + rows * 30);

function Outcome({ result, syntax }: { result: DraftRunResult; syntax: PlaceholderSyntax }) {
  const failed = result.upstreamError ?? null;
  const noun = syntax.source === 'SQL' ? 'The SQL' : 'The request';
  return (
    <Stack gap="xs">
      <Text size="sm">
        Bound values: <Code>{JSON.stringify(result.boundValues)}</Code> · {formatMs(result.durationMs)}
        {result.truncated ? ' · only the first rows are shown' : ''}
      </Text>
      {failed ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title={`The web API call failed (${failed.status})`}>
          {failed.message}
        </Alert>
      ) : null}
      {!failed && result.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {noun} ran and returned no rows.
        </Text>
      ) : null}
      {result.rows.length > 0 ? (
        <LazyResultGrid
          label="Preview of the result"
          columns={result.columns}
          rows={result.rows}
          height={gridHeight(result.rows.length)}
        />
      ) : null}
      {result.exchanges ? (
        <Stack gap={6} mt="xs">
          <Title order={3} fz="h6">
            Upstream exchange
          </Title>
          <ExchangeList exchanges={result.exchanges} omitted={result.exchangesOmitted ?? 0} />
        </Stack>
      ) : null}
    </Stack>
  );
}

/** Values to try the draft with, Run (or Try), the first rows with the values as they were bound, and the exchange. */
export function PreviewPanel(props: PreviewPanelProps) {
  const { parameters, syntax, values, onValuesChange, runLabel, onRun, isRunning, blocker, result, error, errors } =
    props;
  return (
    <Stack gap="md">
      {parameters.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {parameters.map((p) => (
            <TextInput
              key={p.name}
              label={`Value of ${syntax.mark(p.name)}`}
              description={p.list ? `${p.type} values, separated by commas` : p.type}
              value={values[p.name] ?? ''}
              error={errors[p.name]?.join(' ')}
              onChange={(e) => onValuesChange({ ...values, [p.name]: e.currentTarget.value })}
            />
          ))}
        </SimpleGrid>
      ) : null}
      <Group>
        <Button
          leftSection={<IconPlayerPlay size={16} />}
          onClick={onRun}
          loading={isRunning}
          disabled={blocker !== null}
        >
          {runLabel}
        </Button>
        {blocker ? (
          <Text size="sm" c="dimmed">
            {blocker}
          </Text>
        ) : null}
      </Group>
      {error && Object.keys(errors).length === 0 ? <InlineError error={error} /> : null}
      {result ? <Outcome result={result} syntax={syntax} /> : null}
    </Stack>
  );
}
