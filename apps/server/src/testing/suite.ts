import { afterAll, beforeAll, describe } from 'vitest';
import type { BuildOptions } from '../app.ts';
import { createTestApp, type TestApp } from './app.ts';
import { isPostgresAvailable, type StoreKind } from './stores.ts';

// Runs a suite once per metadata store, each against its own fresh app.

const stores: StoreKind[] = ['sqlite', 'postgres'];
const postgres = await isPostgresAvailable();

export function describeEachStore(
  name: string,
  body: (context: () => TestApp, store: StoreKind) => void,
  options: {
    env?: Record<string, string>;
    extend?: BuildOptions['extend'];
    accessOverride?: BuildOptions['accessOverride'];
    resolveHost?: BuildOptions['resolveHost'];
  } = {},
) {
  for (const store of stores) {
    const run = store === 'sqlite' || postgres ? describe : describe.skip;
    run(`${name} [${store}]`, () => {
      let testApp: TestApp | undefined;
      beforeAll(async () => {
        const build = {
          ...(options.accessOverride ? { accessOverride: options.accessOverride } : {}),
          ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
        };
        testApp = await createTestApp(store, options.env, options.extend, build);
      });
      afterAll(async () => {
        await testApp?.close();
      });
      body(() => {
        if (!testApp) throw new Error('the test app is not built yet');
        return testApp;
      }, store);
    });
  }
}
