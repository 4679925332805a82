import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useBlocker } from 'react-router';

export interface UnsavedChangesGuard {
  /** Turns the question off (`true`) just before a navigation the user chose knowing the changes go (Cancel,
   * a save that moves on), or back on (`false`) when that save was refused. */
  allowLeaving: (isAllowed: boolean) => void;
  /** Render this: the question asked when a link, a tab or the browser's Back would leave the form. */
  prompt: ReactNode;
}

/**
 * Leaving a form with unsaved changes asks first: within the app (links, tabs, Back) through the
 * router's blocker, and when the tab is closed or reloaded through the browser's own question.
 */
export function useUnsavedChangesGuard(isDirty: boolean): UnsavedChangesGuard {
  const isAllowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && !isAllowed.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!isDirty) return undefined;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      if (isAllowed.current) return;
      event.preventDefault();
      // Older browsers only ask when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [isDirty]);

  const isBlocked = blocker.state === 'blocked';
  const prompt = (
    <Modal opened={isBlocked} onClose={() => blocker.reset?.()} title="Leave without saving?" centered>
      <Stack gap="lg">
        <Text size="sm">Your changes on this page are not saved. If you leave now, they are lost.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            Stay on this page
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            Leave and lose changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return {
    allowLeaving: (allowed) => {
      isAllowed.current = allowed;
    },
    prompt,
  };
}
