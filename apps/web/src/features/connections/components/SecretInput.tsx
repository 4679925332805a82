import { PasswordInput } from '@mantine/core';

interface SecretInputProps {
  label: string;
  /** Whether the form edits something already stored, whose secret a typed value replaces. */
  isStored: boolean;
  /** What to say under the field instead of how the secret is kept. */
  description?: string | undefined;
  required?: boolean;
  value: string;
  error: string | undefined;
  onChange: (secret: string) => void;
}

/**
 * A secret the server stores encrypted and never sends back: a stored one shows as the masked placeholder, which
 * focusing selects so that typing replaces it. The browser is told not to fill in a saved password.
 */
export function SecretInput({ label, isStored, description, required, value, error, onChange }: SecretInputProps) {
  const kept = isStored
    ? 'Stored encrypted and never shown. Type a new one to replace it.'
    : 'Stored encrypted and never shown again.';
  return (
    <PasswordInput
      label={label}
      description={description ?? kept}
      required={required}
      value={value}
      error={error}
      autoComplete="new-password"
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}
