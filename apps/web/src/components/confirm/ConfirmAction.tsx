import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmActionProps {
  /** The modal's title, e.g. 'Remove member'. */
  title: string;
  /** What will happen, in a sentence. */
  message: ReactNode;
  confirmLabel: string;
  /** The confirm button's colour: red (the default) for what takes something away. */
  confirmColor?: string | undefined;
  onConfirm: () => Promise<unknown>;
  /** Renders the control that opens the confirmation. */
  children: (open: () => void) => ReactNode;
}

/**
 * Asks before a change that cannot be taken back in one click. The modal stays open while the call
 * runs and closes when it succeeds; a refusal is reported by the API client and leaves it open.
 */
export function ConfirmAction({
  title,
  message,
  confirmLabel,
  confirmColor = 'red',
  onConfirm,
  children,
}: ConfirmActionProps) {
  const [isOpen, setOpen] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const handleConfirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The API client has already told the user why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {children(() => setOpen(true))}
      <Modal opened={isOpen} onClose={() => setOpen(false)} title={title} centered>
        <Stack gap="lg">
          <Text size="sm">{message}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpen(false)} disabled={isBusy}>
              Cancel
            </Button>
            <Button color={confirmColor} onClick={() => void handleConfirm()} loading={isBusy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
