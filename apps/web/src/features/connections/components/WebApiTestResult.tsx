import { Alert, List, Stack } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { WebApiTestResult as TestResultView } from '@datalab/contract/api/web-api';
import { ExchangeList } from '../../../components/http-exchange/ExchangeList.tsx';

/** A Web API test's outcome: the status and server, warnings (a refused credential), and the exchange itself. */
export function WebApiTestResult({ result, title }: { result: TestResultView; title?: string }) {
  const hasWarnings = result.warnings.length > 0;
  let alert;
  if (result.error) {
    alert = (
      <Alert
        color="red"
        icon={<IconAlertTriangle size={18} />}
        title={title ?? 'The web API was not reached'}
        role="status"
      >
        {result.error.message}
      </Alert>
    );
  } else {
    alert = (
      <Alert
        color={result.ok && !hasWarnings ? 'teal' : 'red'}
        icon={result.ok && !hasWarnings ? <IconCircleCheck size={18} /> : <IconAlertTriangle size={18} />}
        title={`${title ?? 'Reached'}: ${result.serverVersion || `HTTP ${result.status ?? ''}`}`}
        role="status"
      >
        {hasWarnings ? (
          <List size="sm">
            {result.warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        ) : (
          'The base URL answered.'
        )}
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      {alert}
      <ExchangeList exchanges={result.exchanges} omitted={result.exchangesOmitted} label="Exchanges of the test" />
    </Stack>
  );
}
