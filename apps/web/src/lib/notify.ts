import { notifications } from '@mantine/notifications';
import { limits } from '@datalab/contract/limits';

// The one way the app raises a toast. product §4/§9: auto-close after 5000 ms, at most 5 shown
// (the <Notifications> limit; the rest wait in the queue), top-centre, and a message that is
// already on screen (or waiting) is not shown twice — its id is derived from the message.

export type NotifyKind = 'error' | 'success' | 'info' | 'warning';

const colors: Record<NotifyKind, string> = { error: 'red', success: 'teal', info: 'blue', warning: 'yellow' };

export interface NotifyOptions {
  kind?: NotifyKind;
  title?: string;
}

export function notify(message: string, { kind = 'info', title }: NotifyOptions = {}): string {
  return notifications.show({
    id: notificationId(message),
    message,
    title,
    color: colors[kind],
    autoClose: limits.notificationDurationMs,
    withBorder: true,
    // The close button is an icon: it needs a name (WCAG 4.1.2).
    closeButtonProps: { 'aria-label': 'Close notification' },
    // Multi-line messages (a 400's 'field: messages' lines) keep their line breaks.
    styles: { description: { whiteSpace: 'pre-line' } },
  });
}

export const notifyError = (message: string, title?: string) => notify(message, { kind: 'error', title });
export const notifySuccess = (message: string, title?: string) => notify(message, { kind: 'success', title });

/** A stable id per message text (cyrb53), so the store refuses a duplicate while one is shown. */
export function notificationId(message: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < message.length; i++) {
    const ch = message.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `notify-${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}
