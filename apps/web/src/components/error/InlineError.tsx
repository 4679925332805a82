import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { inlineError } from '@datalab/contract/texts';

/** product §8: inline error display reads 'ERROR: message'. */
export function InlineError({ error }: { error: Error | string }) {
  const message = typeof error === 'string' ? error : error.message;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
      {inlineError(message)}
    </Alert>
  );
}
