import { useSyncExternalStore } from 'react';

// A session the API refused (401) or that could not be renewed silently has ended, even while the
// sign-in library still holds its token: the screens say so and offer to sign in again, instead of
// showing the avatar of a session that no longer works. A new sign-in clears it.

let hasEnded = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (hasEnded === next) return;
  hasEnded = next;
  for (const listener of listeners) listener();
}

export const markSessionEnded = (): void => set(true);
export const clearSessionEnded = (): void => set(false);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useHasSessionEnded(): boolean {
  return useSyncExternalStore(subscribe, () => hasEnded);
}
