import { resolve } from 'node:path';
import {
  ConnectorRegistry,
  type AnyConnectorSettings,
  type Connector,
  type ConnectorSettings,
  type Resolver,
} from '@datalab/engine';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { validation } from '../../lib/errors.ts';
import { SecretBox } from '../../lib/secrets.ts';
import type { SqlRuntime } from './runtime.service.ts';
import { targetOf, targetPolicy, targetRefusal, type TargetPolicy } from './target-policy.ts';

// One ConnectorRegistry for the app (one bounded pool per connection, replaced when its settings change,
// all closed on shutdown) and the SqlRuntime that opens stored secrets. The calling layer uses both.

declare module 'fastify' {
  interface FastifyInstance {
    connectors: ConnectorRegistry;
    sqlRuntime: SqlRuntime;
  }
}

/**
 * Every run reaches its database through `get`, so the target policy is checked here, before any pool opens: a
 * connection pointing at the store's database runs nothing. Hosts are judged by the SqlHostGuard each connector's
 * settings carry, on every socket it opens (a connection saved before SQL_HOST_ALLOWLIST changed connects to nothing
 * the list now refuses).
 * Web API connections are guarded by the engine's outbound guard instead (every request, at connect time); each
 * gets one connector per credential it sends (settings carry only that one), kept under `<id>#<credential>` so
 * data sources of one connection with different credentials do not replace each other's, and `evict(id)` closes
 * them all.
 */
class GuardedConnectorRegistry extends ConnectorRegistry {
  readonly #policy: TargetPolicy;
  /** Settings objects already judged (the calling layer reuses a definition's settings from call to call). */
  readonly #allowed = new WeakSet<ConnectorSettings>();
  /** Web API connection id → the registry keys of its connectors. */
  readonly #httpKeys = new Map<string, Set<string>>();

  constructor(policy: TargetPolicy) {
    super();
    this.#policy = policy;
  }

  override get(id: string, config: AnyConnectorSettings): Connector {
    if (config.kind === 'http') {
      const key = `${id}#${(config.settings.credentials ?? []).map((c) => c.id).join(',')}`;
      const keys = this.#httpKeys.get(id) ?? new Set<string>();
      keys.add(key);
      this.#httpKeys.set(id, keys);
      return super.get(key, config);
    }
    if (!this.#allowed.has(config)) {
      const refusal = targetRefusal(this.#policy, targetOf(config));
      if (refusal) throw validation(refusal);
      this.#allowed.add(config);
    }
    return super.get(id, config);
  }

  override async evict(id: string): Promise<void> {
    const keys = [...(this.#httpKeys.get(id) ?? [])];
    this.#httpKeys.delete(id);
    await Promise.all([super.evict(id), ...keys.map((key) => super.evict(key))]);
  }
}

export interface SqlRuntimeOptions {
  /** Replaces DNS for database hosts (test builds: a name that resolves to loopback without a real zone). */
  resolveHost?: Resolver | undefined;
}

export default fp(
  async (app: FastifyInstance, options: SqlRuntimeOptions) => {
    const key = app.config.encryptionKey;
    // Outside production app.ts fills the key from DATA_DIR/secrets.json; production requires ENCRYPTION_KEY.
    if (!key) throw new Error('ENCRYPTION_KEY is required to store connection secrets');
    const targets = targetPolicy(app.config, options.resolveHost);
    const registry = new GuardedConnectorRegistry(targets);
    app.decorate('connectors', registry);
    const { database } = app.config;
    const storeFile = database.kind === 'sqlite' ? resolve(database.file) : undefined;
    app.decorate('sqlRuntime', {
      box: new SecretBox(key),
      dataDir: resolve(app.config.dataDir),
      storeFile,
      sharedPaths: app.config.sqliteSharedPaths,
      targets,
    });
    app.addHook('onClose', async () => registry.close());
  },
  { name: 'sql-runtime', dependencies: ['config'] },
);
