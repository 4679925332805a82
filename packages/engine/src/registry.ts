import { lazyConnector } from './connectors/lazy.ts';
import { createPostgresConnector } from './connectors/postgres.ts';
import {
  type MysqlSettings,
  type PostgresSettings,
  type SqliteSettings,
  mysqlSettingsSchema,
} from './connectors/settings.ts';
import { createSqliteConnector } from './connectors/sqlite.ts';
import { createHttpConnector } from './http/connector.ts';
import type { HttpSettings } from './http/settings.ts';
import type { Connector, PoolStats } from './types.ts';

// createConnector builds one connector (one bounded pool). The registry keeps one per connection id and replaces
// it when the connection's settings change, so every call to one connection shares one pool.

export type ConnectorSettings =
  | { kind: 'postgres'; settings: PostgresSettings }
  | { kind: 'mysql'; settings: MysqlSettings }
  | { kind: 'sqlite'; settings: SqliteSettings };
/** A Web API connection (kept apart from the SQL kinds above, whose settings name a database host). */
export type HttpConnectorSettings = { kind: 'http'; settings: HttpSettings };
export type AnyConnectorSettings = ConnectorSettings | HttpConnectorSettings;
export type ConnectorKind = AnyConnectorSettings['kind'];

type SettingsOf<K extends ConnectorKind> = Extract<AnyConnectorSettings, { kind: K }>['settings'];

export function createConnector<K extends ConnectorKind>(kind: K, settings: SettingsOf<K>): Connector {
  const config = { kind, settings } as AnyConnectorSettings;
  switch (config.kind) {
    case 'postgres':
      return createPostgresConnector(config.settings);
    case 'mysql': {
      const settings = mysqlSettingsSchema.parse(config.settings);
      return lazyConnector('mysql', async () => (await import('./connectors/mysql.ts')).createMysqlConnector(settings));
    }
    case 'sqlite':
      return createSqliteConnector(config.settings);
    case 'http':
      return createHttpConnector(config.settings);
  }
}

export class ConnectorRegistry {
  #entries = new Map<string, { fingerprint: string; connector: Connector }>();
  /** Fingerprints of settings objects seen: callers pass the same object while a definition is reused. */
  #fingerprints = new WeakMap<AnyConnectorSettings, string>();

  #fingerprint(config: AnyConnectorSettings): string {
    let fingerprint = this.#fingerprints.get(config);
    if (fingerprint === undefined) {
      fingerprint = JSON.stringify(config);
      this.#fingerprints.set(config, fingerprint);
    }
    return fingerprint;
  }

  /**
   * The connector for a connection id; a new pool when the settings differ from the last call's. A settings object
   * is read once: it must not be changed after it was passed here (pass a new one).
   */
  get(id: string, config: AnyConnectorSettings): Connector {
    const fingerprint = this.#fingerprint(config);
    const existing = this.#entries.get(id);
    if (existing?.fingerprint === fingerprint) return existing.connector;
    if (existing) void existing.connector.close().catch(() => undefined);
    const connector = createConnector(config.kind, config.settings);
    this.#entries.set(id, { fingerprint, connector });
    return connector;
  }

  /** Each open pool's occupancy by connection id (metrics read it when scraped). */
  stats(): { id: string; kind: string; stats: PoolStats }[] {
    const all: { id: string; kind: string; stats: PoolStats }[] = [];
    for (const [id, { connector }] of this.#entries) {
      const stats = connector.stats?.();
      if (stats) all.push({ id, kind: connector.kind, stats });
    }
    return all;
  }

  /** Closes one connection's pool (after an edit or a delete). */
  async evict(id: string): Promise<void> {
    const existing = this.#entries.get(id);
    this.#entries.delete(id);
    await existing?.connector.close();
  }

  async close(): Promise<void> {
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(all.map((entry) => entry.connector.close()));
  }
}
