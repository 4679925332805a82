import { messages } from '@datalab/contract/messages';
import { Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { LazyResultGrid } from '../../../components/results/LazyResultGrid.tsx';
import { useLiveFieldErrors } from '../../../components/forms/use-live-field-errors.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useCallDataSource } from '../api/call-data-source.ts';
import { readParameters } from '../parameters/definition.ts';
import { valuesToCall } from '../parameters/form-values.ts';
import { useUrlValues } from '../parameters/use-url-values.ts';
import { ParameterForm } from './ParameterForm.tsx';
import { ResultSummary } from './ResultSummary.tsx';

const NO_ERRORS = {};

export type CallOutcome = NonNullable<ReturnType<typeof useCallDataSource>['data']>;

interface CallWorkbenchProps {
  asset: DataSourceDetail;
  /** More about the exchange below the result (the developer-mode screen). */
  details?: (outcome: CallOutcome, sent: Record<string, unknown>) => ReactNode;
  /** Ask the calling layer for a Web API asset's upstream exchanges (the developer-mode screen). */
  withExchanges?: boolean;
  /**
   * The download action beside Call, given the values as the call sends them. The download jobs are their own
   * feature, so the screen that composes both passes it in.
   */
  download?: (parameters: Record<string, unknown>) => ReactNode;
}

/** The call screen's body: the parameter form with Call and Download, then the result grid with its notices. */
export function CallWorkbench({ asset, details, withExchanges = false, download }: CallWorkbenchProps) {
  const [parameters] = useState(() => readParameters(asset.parameters));
  const { values, setValue } = useUrlValues(parameters);
  // The form shows each parameter's messages under it, so the toast does not repeat them; a message leaves its
  // field as the value changes.
  const [inlineFields] = useState(() => parameters.map((parameter) => parameter.name));
  const call = useCallDataSource(asset.uid, { withExchanges, inlineFields });
  const [sent, setSent] = useState<Record<string, unknown>>({});
  const refusals = call.error instanceof ApiError ? call.error.errors : NO_ERRORS;
  const errors = useLiveFieldErrors(refusals, values);

  const handleSubmit = () => {
    const body = valuesToCall(parameters, values);
    setSent(body);
    call.mutate(body);
  };

  let result: ReactNode = (
    <Text size="sm" c="dimmed">
      Fill in the parameters and press Call to see the result here.
    </Text>
  );
  const wasCancelled = call.error instanceof ApiError && call.error.kind === 'aborted';
  if (call.isPending) {
    result = (
      <Group gap="sm">
        <Loader size="xs" />
        <Text size="sm">Calling {asset.name}…</Text>
        <Button size="xs" variant="default" leftSection={<IconPlayerStop size={14} />} onClick={call.cancel}>
          Cancel call
        </Button>
      </Group>
    );
  } else if (wasCancelled) {
    result = (
      <Text size="sm" c="dimmed">
        The call was cancelled. Press Call to run it again.
      </Text>
    );
  } else if (call.isError && Object.keys(refusals).length === 0) result = <InlineError error={call.error} />;
  else if (call.data) {
    const { result: data } = call.data;
    result = (
      <Stack gap="sm">
        <ResultSummary result={data} rowCap={asset.rowCap} />
        {data.rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {messages.noneFound()}: the call succeeded and returned no rows for these parameters.
          </Text>
        ) : (
          <LazyResultGrid label={`Result of ${asset.name}`} columns={data.columns} rows={data.rows} />
        )}
        {details?.(call.data, sent)}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <ParameterForm
          parameters={parameters}
          values={values}
          errors={errors}
          isRunning={call.isPending}
          onChange={setValue}
          onSubmit={handleSubmit}
          actions={download?.(valuesToCall(parameters, values))}
        />
      </Card>
      <section aria-label="Result">{result}</section>
    </Stack>
  );
}
