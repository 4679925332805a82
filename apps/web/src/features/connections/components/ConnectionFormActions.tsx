import { Button, Group } from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';

// The foot of a connection form, whatever its kind: test the settings on screen, cancel, or save.

interface ConnectionFormActionsProps {
  onTest: () => void;
  isTesting: boolean;
  onCancel: () => void;
  isSaving: boolean;
  submitLabel: string;
}

export function ConnectionFormActions({
  onTest,
  isTesting,
  onCancel,
  isSaving,
  submitLabel,
}: ConnectionFormActionsProps) {
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
