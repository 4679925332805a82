import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { removeExpiredLogs, type RetentionResult } from '../modules/application-logs/retention.service.ts';

// Application-log retention: records older than APP_LOG_RETENTION_DAYS go, and beyond
// APP_LOG_RETENTION_MAX_ROWS records the oldest go. Run once just after start and then every 10 minutes, off the request
// path, in small batches with a turn of the event loop between them: a store holding millions of expired records
// is emptied without one long statement holding locks or the loop. Runs one at a time per instance; several
// instances running at once delete disjoint or already-deleted rows, which is harmless.

export interface AppLogRetention {
  /** Removes what is past retention now (tests pass `now`). */
  run(now?: Date): Promise<RetentionResult>;
}

declare module 'fastify' {
  interface FastifyInstance {
    appLogRetention: AppLogRetention;
  }
}

const DAY_MS = 86_400_000;
/**
 * Every 10 minutes: each data call writes a 'call' record (plugins/usage.ts), so at 2,000 calls/s some 1.2 M
 * records arrive between runs; hourly runs would let the table reach 7 M beyond its cap before trimming it.
 */
const INTERVAL_MS = DAY_MS / 144;
export default fp(
  async (app: FastifyInstance) => {
    const { appLogRetentionDays: days, appLogRetentionMaxRows: maxRows } = app.config;
    let isClosing = false;
    let running: Promise<RetentionResult> | undefined;

    const removeExpired = (now: Date): Promise<RetentionResult> =>
      removeExpiredLogs(app.db, new Date(now.getTime() - days * DAY_MS).toISOString(), maxRows, () => isClosing);

    const retention: AppLogRetention = {
      // Runs one after another: a run asked for while one is going starts when it ends.
      run(now = new Date()) {
        const previous = running?.catch(() => undefined) ?? Promise.resolve();
        const current = previous.then(() => removeExpired(now));
        running = current;
        void current
          .finally(() => {
            if (running === current) running = undefined;
          })
          .catch(() => undefined);
        return current;
      },
    };
    app.decorate('appLogRetention', retention);

    const runLogged = () => {
      retention
        .run()
        .then((result) => {
          if (result.byAge + result.bySize > 0) app.log.info(result, 'application log retention');
        })
        .catch((error: unknown) => app.log.error({ err: error }, 'application log retention failed'));
    };
    let startTimer: NodeJS.Timeout | undefined;
    const timer = setInterval(runLogged, INTERVAL_MS);
    timer.unref();
    app.addHook('onReady', async () => {
      startTimer = setTimeout(runLogged, 0);
      startTimer.unref();
    });
    app.addHook('onClose', async () => {
      isClosing = true;
      clearInterval(timer);
      clearTimeout(startTimer);
      // The run stops after its current batch; the store closes after it.
      await running?.catch(() => undefined);
    });
  },
  { name: 'app-log-retention', dependencies: ['db'] },
);
