import { Notifications } from '@mantine/notifications';
import { limits } from '@datalab/contract/limits';
import classes from './AppNotifications.module.css';

/**
 * Where `notify` toasts appear: top-centre, at most 5 at a time, closing after 5000 ms; below the header, so a
 * stack of toasts never covers the navigation, and each at most a few lines tall.
 */
export function AppNotifications() {
  return (
    <Notifications
      position="top-center"
      limit={limits.notificationMaxShown}
      autoClose={limits.notificationDurationMs}
      containerWidth={480}
      notificationMaxHeight={160}
      classNames={{ root: classes.root }}
    />
  );
}
