import { PasswordInput, Stack, Text, Title } from '@mantine/core';

export interface SecretFieldsProps {
  references: readonly string[];
  values: Readonly<Record<string, string>>;
  onChange: (reference: string, value: string) => void;
}

/** A value for each secret the document references and the collection does not hold yet. */
export function SecretFields({ references, values, onChange }: SecretFieldsProps) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="h5">
        Secrets
      </Title>
      <Text size="sm" c="dimmed">
        The document names these secrets, and the collection does not hold them yet. Their values go to the server with
        the plan and are never shown again.
      </Text>
      {references.map((reference) => (
        <PasswordInput
          key={reference}
          label={reference}
          value={values[reference] ?? ''}
          onChange={(event) => onChange(reference, event.currentTarget.value)}
          autoComplete="off"
          required
        />
      ))}
    </Stack>
  );
}
