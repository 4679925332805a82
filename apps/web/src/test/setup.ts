import { cleanup, configure } from '@testing-library/react';
import { cleanNotifications } from '@mantine/notifications';
import { afterEach, beforeEach } from 'vitest';
import { clearSessionEnded } from '../lib/auth/session-ended.ts';
import { installMatchMedia, setViewportWidth } from './viewport.ts';

installMatchMedia();
// The first screen of a file also loads its lazy route module; on a busy machine that takes over 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks these; Mantine and the router call them.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub;
window.scrollTo = () => undefined;
// Mantine's autosizing Textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}
Element.prototype.scrollIntoView ??= () => undefined;

beforeEach(() => {
  setViewportWidth(1280);
  window.localStorage.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  cleanNotifications();
  clearSessionEnded();
});
