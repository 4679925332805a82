import { afterAll, beforeAll, describe } from 'vitest';
import type { BuildOptions } from '../../src/app.ts';
import { createTestApp, type TestApp } from './app.ts';
import { isPostgresAvailable, type StoreKind } from './stores.ts';

// A suite against its own fresh app: describeEachStore runs it once per metadata store, for suites whose subject
// is the store's own code (repositories, their SQL, migrations, transactions, uniqueness); describeApp runs it on
// SQLite only, for suites whose subject sits above the store (the calling layer, the engine's errors, hardening,
// downloads' streaming), where a second store would run the same code again.

const postgres = await isPostgresAvailable();

interface SuiteOptions {
  env?: Record<string, string>;
  extend?: BuildOptions['extend'];
  accessOverride?: BuildOptions['accessOverride'];
  resolveHost?: BuildOptions['resolveHost'];
  metricFamilies?: BuildOptions['metricFamilies'];
}

export function describeEachStore(
  name: string,
  body: (context: () => TestApp, store: StoreKind) => void,
  options: SuiteOptions = {},
) {
  describeOn(['sqlite', 'postgres'], name, body, options);
}

export function describeApp(
  name: string,
  body: (context: () => TestApp, store: StoreKind) => void,
  options: SuiteOptions = {},
) {
  describeOn(['sqlite'], name, body, options);
}

function describeOn(
  stores: StoreKind[],
  name: string,
  body: (context: () => TestApp, store: StoreKind) => void,
  options: SuiteOptions,
) {
  for (const store of stores) {
    const run = store === 'sqlite' || postgres ? describe : describe.skip;
    run(`${name} [${store}]`, () => {
      let testApp: TestApp | undefined;
      beforeAll(async () => {
        const build = {
          ...(options.accessOverride ? { accessOverride: options.accessOverride } : {}),
          ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
          ...(options.metricFamilies ? { metricFamilies: options.metricFamilies } : {}),
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
