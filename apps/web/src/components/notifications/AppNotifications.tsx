import { Notifications } from '@mantine/notifications';
import { limits } from '@datalab/contract/limits';

/** Where `notify` toasts appear: top-centre, at most 5 at a time, closing after 5000 ms. */
export function AppNotifications() {
  return (
    <Notifications
      position="top-center"
      limit={limits.notificationMaxShown}
      autoClose={limits.notificationDurationMs}
      containerWidth={480}
    />
  );
}
