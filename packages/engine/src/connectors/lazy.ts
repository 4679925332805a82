import type { Connector } from '../types.ts';

// A connector whose driver is loaded on first use: a server that never talks to, say, MariaDB never pays the
// driver's resident memory. Settings are checked by the caller before this, so a bad one still fails at once.

export function lazyConnector(kind: string, load: () => Promise<Connector>): Connector {
  let loaded: Promise<Connector> | undefined;
  let ready: Connector | undefined;
  const connector = () =>
    (loaded ??= load().then((value) => {
      ready = value;
      return value;
    }));
  return {
    kind,
    stats: () => ready?.stats?.(),
    run: async (request) => (await connector()).run(request),
    testConnection: async (signal) => (await connector()).testConnection(signal),
    listSchema: async (signal) => (await connector()).listSchema(signal),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}
