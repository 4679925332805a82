import { Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import {
  customDateError,
  expiresOnOf,
  expiryChoices,
  utcDateIn,
  type ExpiryChoice,
  type ExpirySettings,
} from '../model/expiry.ts';

export interface ExpiryValue {
  choice: ExpiryChoice;
  customDate: string;
}

interface ExpiryFieldProps {
  settings: ExpirySettings;
  value: ExpiryValue;
  onChange: (value: ExpiryValue) => void;
  /** Shown once the form was submitted. */
  error?: string | undefined;
}

const longDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' });

/** How long a new token lives: a preset, a date of one's own (at most the server's maximum), or never if allowed. */
export function ExpiryField({ settings, value, onChange, error }: ExpiryFieldProps) {
  const expiresOn = expiresOnOf(value.choice, value.customDate);
  const isValid = value.choice !== 'custom' || customDateError(value.customDate, settings) === undefined;
  return (
    <Stack gap="xs">
      <Radio.Group
        label="Expires"
        description={`At most ${settings.maxDays} days from today. Expired tokens stop working; create a new one then.`}
        value={value.choice}
        onChange={(choice) =>
          // A custom date starts at the default expiry, for the user to move.
          onChange({ choice: choice as ExpiryChoice, customDate: value.customDate || utcDateIn(settings.defaultDays) })
        }
      >
        <Group gap="md" mt="xs">
          {expiryChoices(settings).map((choice) => (
            <Radio key={choice.value} value={choice.value} label={choice.label} />
          ))}
        </Group>
      </Radio.Group>
      {value.choice === 'custom' ? (
        <TextInput
          type="date"
          label="Expiry date"
          w={220}
          min={utcDateIn(1)}
          max={utcDateIn(settings.maxDays)}
          value={value.customDate}
          onChange={(event) => onChange({ ...value, customDate: event.currentTarget.value })}
          error={error}
        />
      ) : null}
      <Text size="sm" c="dimmed" aria-live="polite">
        {expiresOn === null
          ? 'This token never expires: revoke it when it is no longer needed.'
          : isValid
            ? `Stops working on ${longDate.format(new Date(`${expiresOn}T00:00:00Z`))} at 00:00 UTC.`
            : ''}
      </Text>
    </Stack>
  );
}
