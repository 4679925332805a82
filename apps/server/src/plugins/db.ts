import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createDatabase, migrateToLatest, type Database } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
  }
}

export class StoreUnreachableError extends Error {
  constructor(kind: string, cause: unknown) {
    super(`The metadata store (${kind}) cannot be reached: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnreachableError';
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { database } = app.config;
    const db = createDatabase(database, (error) => app.log.warn({ err: error }, 'PostgreSQL idle connection lost'));
    app.decorate('db', db);
    app.addHook('onClose', async () => db.destroy());
    let applied: string[];
    try {
      applied = await migrateToLatest(db);
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === '3D000' || code === '28P01') {
        throw new StoreUnreachableError(database.kind, error);
      }
      throw error;
    }
    if (applied.length > 0) app.log.info({ migrations: applied }, 'metadata store migrated');
  },
  { name: 'db', dependencies: ['config'] },
);
