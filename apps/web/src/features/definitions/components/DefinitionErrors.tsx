import { Alert, Code, List, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { fieldPath } from '../../../lib/field-errors.ts';
import { isApiError } from '../../../lib/api-error.ts';

/**
 * Why the server refused a document, in place: each refused field by its path in the document
 * (`assets.2.parameters.0.dependsOn`) with its messages; any other failure as one line with the reply's title.
 */
export function DefinitionErrors({ error }: { error: Error }) {
  const fields = isApiError(error) ? Object.entries(error.errors) : [];
  // The reply's own title ('Collection … does not exist', 'The document is too large') says more here than the
  // generic text a toast would carry; a 5xx title names no internals.
  if (fields.length === 0) return <InlineError error={(isApiError(error) && error.problem?.title) || error} />;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title="The server refused the document"
      role="alert"
    >
      <List size="sm" spacing={4} aria-label="Refused fields">
        {fields.map(([path, messages]) => (
          <List.Item key={path}>
            <Code>{fieldPath(path)}</Code>{' '}
            <Text span size="sm">
              {messages.join(' ')}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
