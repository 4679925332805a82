import { useSyncExternalStore } from 'react';

// Developer mode (product §2): remembered in localStorage across reloads, read by React (header
// switch, navigation, error details, mobile restriction) and outside React (the API client).

export const DEVELOPER_MODE_KEY = 'datalab.developerMode';

const listeners = new Set<() => void>();

export function readDeveloperMode(): boolean {
  try {
    return window.localStorage.getItem(DEVELOPER_MODE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function setDeveloperMode(enabled: boolean): void {
  try {
    if (enabled) window.localStorage.setItem(DEVELOPER_MODE_KEY, 'true');
    else window.localStorage.removeItem(DEVELOPER_MODE_KEY);
  } finally {
    listeners.forEach((listener) => listener());
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab switching the mode changes this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === DEVELOPER_MODE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useDeveloperMode(): boolean {
  return useSyncExternalStore(subscribe, readDeveloperMode, () => false);
}
