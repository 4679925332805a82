import { Button, Group, Stack } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';

// A connection's settings form whatever its kind (SQL or Web API): what it takes, and its frame — the fields, the last
// test's result, and the foot: test the settings on screen, cancel, or save. The same form creates a connection and
// edits a stored one; only the save differs.

/** The props a connection settings form shares with the other kind: where it saves and how it ends. */
export interface SettingsFormProps<Settings> {
  collectionUid: string;
  onSubmit: (settings: Settings) => void;
  isSaving: boolean;
  saveError: unknown;
  submitLabel: string;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
}

/** A create or update mutation as a settings form's save: submit runs it, then `onSaved` with what the server kept. */
export function savedBy<Settings, Saved>(
  mutation: UseMutationResult<Saved, unknown, Settings>,
  onSaved: (saved: Saved) => void,
): Pick<SettingsFormProps<Settings>, 'onSubmit' | 'isSaving' | 'saveError'> {
  return {
    onSubmit: (settings) => mutation.mutate(settings, { onSuccess: onSaved }),
    isSaving: mutation.isPending,
    saveError: mutation.error,
  };
}

interface ConnectionFormFrameProps<Settings> {
  /** The form's accessible name. */
  label: string;
  /** The settings as typed: what Test tries and Save sends. */
  settings: () => Settings;
  form: Pick<SettingsFormProps<Settings>, 'onSubmit' | 'isSaving' | 'submitLabel' | 'onCancel'>;
  test: { mutate: (settings: Settings) => void; isPending: boolean };
  /** The last test's result, when there is one. */
  result: ReactNode;
  children: ReactNode;
}

export function ConnectionFormFrame<Settings>({
  label,
  settings,
  form,
  test,
  result,
  children,
}: ConnectionFormFrameProps<Settings>) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    form.onSubmit(settings());
  };
  return (
    <form onSubmit={handleSubmit} noValidate aria-label={label}>
      <Stack gap="md">
        {children}
        {result}
        <ConnectionFormActions
          onTest={() => test.mutate(settings())}
          isTesting={test.isPending}
          onCancel={form.onCancel}
          isSaving={form.isSaving}
          submitLabel={form.submitLabel}
        />
      </Stack>
    </form>
  );
}

interface ConnectionFormActionsProps {
  onTest: () => void;
  isTesting: boolean;
  onCancel: () => void;
  isSaving: boolean;
  submitLabel: string;
}

function ConnectionFormActions({ onTest, isTesting, onCancel, isSaving, submitLabel }: ConnectionFormActionsProps) {
  return (
    <Group justify="space-between">
      <Button variant="light" leftSection={<IconPlugConnected size={16} />} loading={isTesting} onClick={onTest}>
        Test connection
      </Button>
      <Group gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={isSaving}>
          {submitLabel}
        </Button>
      </Group>
    </Group>
  );
}
