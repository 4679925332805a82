import type { ComponentType } from 'react';

/** A route's `lazy`: load the screen's module on first visit and use one of its components. */
export function lazyPage<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}
