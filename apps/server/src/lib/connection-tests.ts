import { describeConnectFailure, type ConnectFailure } from '@datalab/engine';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { engineErrorOf } from './engine-errors.ts';

// A failed connection test says why (refused, host not found, timed out, authentication failed, database missing,
// TLS required, …) and what to do, as a 400 whose errors map names the settings field the reason points at, so the
// connection form shows it under that field; and it leaves a warn record in the application log (category
// 'connections') for administrators. Web API tests answer a result with `error` instead (modules/web-api/service.ts); their
// failures are logged here too.

/** What the log record says of the connection tested: never a password. */
export type TestedConnection = Record<string, string | number | boolean | null | undefined>;

async function logFailure(
  app: FastifyInstance,
  request: FastifyRequest,
  subject: TestedConnection,
  message: string,
  failure: Pick<ConnectFailure, 'reason' | 'code'> | undefined,
) {
  await app.appLog
    .write({
      level: 'warn',
      category: 'connections',
      message,
      requestId: request.id,
      userId: request.user?.id ?? null,
      details: { ...subject, reason: failure?.reason ?? null, code: failure?.code ?? null },
    })
    .catch((error: unknown) => request.log.error({ err: error }, 'could not write the application log'));
}

/** Runs a SQL connection test; a connection that could not be made becomes a 400 saying why, and a warn record. */
export async function explainingSqlTestFailure<T>(
  app: FastifyInstance,
  request: FastifyRequest,
  subject: TestedConnection,
  test: () => Promise<T>,
): Promise<T> {
  try {
    return await test();
  } catch (error) {
    const engine = engineErrorOf(error);
    const failure = engine && describeConnectFailure(engine);
    if (!failure) {
      if (engine) await logFailure(app, request, subject, `SQL connection test failed: ${engine.message}`, undefined);
      throw error;
    }
    await logFailure(app, request, subject, `SQL connection test failed: ${failure.message}`, failure);
    throw new AppError({
      status: 400,
      code: 'validation',
      title: failure.message,
      errors: { [failure.field]: [failure.message] },
    });
  }
}

/** A Web API test result whose failure says why, logged as a warn record when the test failed. */
export async function explainedWebApiTest<
  T extends { ok: boolean; status: number | null; error: { status: number; message: string } | null },
>(app: FastifyInstance, request: FastifyRequest, subject: TestedConnection, result: T): Promise<T> {
  if (result.ok) return result;
  const reason = result.error?.message ?? `The web API answered with status ${result.status ?? 'none'}`;
  await logFailure(app, request, subject, `Web API connection test failed: ${reason}`, undefined);
  return result;
}
