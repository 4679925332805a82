import { TextInput } from '@mantine/core';
import { TOKEN_NAME_MAX } from '@datalab/contract/api/tokens';

interface TokenNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  placeholder: string;
}

/** What the token is for: it names it in lists and audit records. */
export function TokenNameField({ value, onChange, error, placeholder }: TokenNameFieldProps) {
  return (
    <TextInput
      label="Name"
      description="Say what uses it, so you know what breaks when you revoke it."
      required
      maxLength={TOKEN_NAME_MAX}
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    />
  );
}

/** The name's problem, if any: required, or one the server refused (a name in use answers 409). */
export function tokenNameError(name: string, refused: { name: string; message: string } | null): string | undefined {
  if (name.trim() === '') return 'Name is required';
  return refused && refused.name === name ? refused.message : undefined;
}
