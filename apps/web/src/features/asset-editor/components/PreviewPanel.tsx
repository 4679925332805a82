import { Button, Code, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import type { PreviewResult } from '@datalab/contract/api/sql-data-sources';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { LazyResultGrid } from '../../../components/results/LazyResultGrid.tsx';
import type { ParameterDraft } from '../model/asset-draft.ts';

interface PreviewPanelProps {
  parameters: readonly ParameterDraft[];
  values: Record<string, string>;
  onValuesChange: (values: Record<string, string>) => void;
  onRun: () => void;
  isRunning: boolean;
  canRun: boolean;
  result: PreviewResult | undefined;
  error: Error | null;
  errors: Record<string, string[]>;
}

/** Values to try the SQL with, Run, and the first rows with the values as they were bound. */
export function PreviewPanel(props: PreviewPanelProps) {
  const { parameters, values, onValuesChange, onRun, isRunning, canRun, result, error, errors } = props;
  return (
    <Stack gap="md">
      {parameters.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {parameters.map((p) => (
            <TextInput
              key={p.name}
              label={`Value of :${p.name}`}
              description={p.list ? `${p.type} values, separated by commas` : p.type}
              value={values[p.name] ?? ''}
              error={errors[p.name]?.join(' ')}
              onChange={(e) => onValuesChange({ ...values, [p.name]: e.currentTarget.value })}
            />
          ))}
        </SimpleGrid>
      ) : null}
      <Group>
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={onRun} loading={isRunning} disabled={!canRun}>
          Run
        </Button>
        {!canRun ? (
          <Text size="sm" c="dimmed">
            Choose a connection and write the SQL first.
          </Text>
        ) : null}
      </Group>
      {error && Object.keys(errors).length === 0 ? <InlineError error={error} /> : null}
      {result ? (
        <Stack gap="xs">
          <Text size="sm">
            Bound values: <Code>{JSON.stringify(result.boundValues)}</Code> · {result.durationMs} ms
            {result.truncated ? ' · only the first rows are shown' : ''}
          </Text>
          {result.rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              The SQL ran and returned no rows.
            </Text>
          ) : (
            <LazyResultGrid label="Preview of the result" columns={result.columns} rows={result.rows} height={320} />
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
