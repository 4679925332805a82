import { MantineProvider } from '@mantine/core';
import { notifications, notificationsStore } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppNotifications } from '../components/notifications/AppNotifications.tsx';
import { notify, notifyError } from './notify.ts';

function renderNotifications() {
  return render(
    <MantineProvider env="test">
      <AppNotifications />
    </MantineProvider>,
  );
}

function shownMessages(): string[] {
  return notificationsStore.getState().notifications.map((item) => String(item.message));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('notify', () => {
  it('suppresses a message that is already shown', () => {
    notifyError('Name is required');
    notifyError('Name is required');
    notify('Name is required', { kind: 'info' });
    notifyError('Something else');
    expect(shownMessages()).toEqual(['Name is required', 'Something else']);
  });

  it('shows the message again once the first one has closed', () => {
    const id = notifyError('Saved twice');
    notifications.hide(id);
    notifyError('Saved twice');
    expect(shownMessages()).toEqual(['Saved twice']);
  });

  it('shows at most 5 at once, top-centre; the rest wait their turn', () => {
    renderNotifications();
    act(() => {
      for (let i = 1; i <= 7; i++) notifyError(`Problem ${i}`);
    });
    const state = notificationsStore.getState();
    expect(state.defaultPosition).toBe('top-center');
    expect(state.notifications).toHaveLength(5);
    expect(state.queue.map((item) => item.message)).toEqual(['Problem 6', 'Problem 7']);
    expect(screen.getByText('Problem 5')).toBeTruthy();
    expect(screen.queryByText('Problem 6')).toBeNull();
  });

  it('closes a notification after 5000 ms', () => {
    vi.useFakeTimers();
    renderNotifications();
    act(() => {
      notifyError('Short-lived');
    });
    expect(screen.getByText('Short-lived')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(4900);
    });
    expect(screen.queryByText('Short-lived')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(shownMessages()).toEqual([]);
  });
});
