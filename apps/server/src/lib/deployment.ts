import { createHash } from 'node:crypto';
import type { Config } from '../config.ts';

/**
 * One deployment's identity in a shared Redis: its metadata store (host, port and database, never its password).
 * Every instance of one deployment shares it; two deployments (or two test runs on fresh stores) sharing a Redis
 * never see each other's cache entries, rate-limit counters or queued jobs, whose ids are per store.
 */
export function deploymentId(config: Config): string {
  const { database } = config;
  let identity = `sqlite:${database.kind === 'sqlite' ? database.file : ''}`;
  if (database.kind === 'postgres') {
    const url = new URL(database.url);
    identity = `postgres:${url.hostname}:${url.port || '5432'}${url.pathname}`;
  }
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}
