import { resolve } from 'node:path';
import { ConnectorRegistry } from '@datalab/engine';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SecretBox } from '../../lib/secrets.ts';
import type { SqlRuntime } from './runtime.service.ts';

// One ConnectorRegistry for the app (one bounded pool per connection, replaced when its settings change,
// all closed on shutdown) and the SqlRuntime that opens stored secrets. The calling layer uses both.

declare module 'fastify' {
  interface FastifyInstance {
    connectors: ConnectorRegistry;
    sqlRuntime: SqlRuntime;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const key = app.config.encryptionKey;
    // Outside production app.ts fills the key from DATA_DIR/secrets.json; production requires ENCRYPTION_KEY.
    if (!key) throw new Error('ENCRYPTION_KEY is required to store connection secrets');
    const registry = new ConnectorRegistry();
    app.decorate('connectors', registry);
    const { database } = app.config;
    const storeFile = database.kind === 'sqlite' ? resolve(database.file) : undefined;
    app.decorate('sqlRuntime', { box: new SecretBox(key), dataDir: resolve(app.config.dataDir), storeFile });
    app.addHook('onClose', async () => registry.close());
  },
  { name: 'sql-runtime', dependencies: ['config'] },
);
