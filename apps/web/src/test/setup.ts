import { cleanup } from '@testing-library/react';
import { cleanNotifications } from '@mantine/notifications';
import { afterEach, beforeEach } from 'vitest';
import { installMatchMedia, setViewportWidth } from './viewport.ts';

installMatchMedia();

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
  Object.defineProperty(document, 'fonts', { value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
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
});
