import { Alert, List } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { ConnectionTestResult } from '@datalab/contract/api/sql-connections';

/** A test's outcome: the server's version, and warnings (a superuser, an account that may write) stand out. */
export function TestResult({ result }: { result: ConnectionTestResult }) {
  if (!result.ok) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title="The connection failed" role="status">
        {result.warnings.join(' ') || 'The database could not be reached with these settings.'}
      </Alert>
    );
  }
  return (
    <Alert
      color={result.warnings.length > 0 ? 'red' : 'teal'}
      icon={result.warnings.length > 0 ? <IconAlertTriangle size={18} /> : <IconCircleCheck size={18} />}
      title={`Connected: ${result.serverVersion}`}
      role="status"
    >
      {result.warnings.length > 0 ? (
        <List size="sm">
          {result.warnings.map((warning) => (
            <List.Item key={warning}>{warning}</List.Item>
          ))}
        </List>
      ) : (
        'The account can read and the connection works.'
      )}
    </Alert>
  );
}
