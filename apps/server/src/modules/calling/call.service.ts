import { isEngineError } from '@datalab/engine';
import { AppError } from '../../lib/errors.ts';
import { engineErrorReply, replyError } from '../../lib/engine-errors.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { CallLimits, HeaderSink } from '../../lib/call-limits.ts';
import type { UsageRecord, UsageRecorder } from '../../lib/usage-record.ts';
import type { DataSourceDefinition } from '../data-sources/definition.service.ts';
import type { ExchangeLog } from '../data-sources/web-api-assets.service.ts';
import type { CallTimings } from './server-timing.ts';
import { callJson, callableAsset, checkValues, type CallingDeps, type JsonCall } from './service.ts';

// One call of a data asset, whatever surface it came through (/data/v1, the MCP endpoint): the asset found and the
// caller authorized through the one policy (their effective roles narrowed by their token), the rate limit
// consumed, the values checked, the run (or the cache) answering, and one usage record with its `call` log record
// written at the end, whatever the outcome. Surfaces only adapt their requests and replies around it.

export interface CallServices {
  calling: CallingDeps;
  limits: CallLimits;
  usage: UsageRecorder;
}

/** Who asks for the call and through what; `client` names an MCP client (its clientInfo) in the call's log record. */
export interface CallOrigin {
  user: AuthUser;
  uid: string;
  channel: UsageRecord['channel'];
  requestId: string;
  client?: string;
}

export function statusOf(error: unknown): number {
  if (error instanceof AppError) return error.status;
  if (isEngineError(error)) return engineErrorReply(error).status;
  return 500;
}

export class DataCall {
  readonly startedAt = performance.now();
  /** The usage record so far: filled in as the call learns its asset and format. */
  readonly record: UsageRecord;
  /** Where the call's time went (Server-Timing on /data/v1). */
  readonly timings: CallTimings = {};
  readonly #services: CallServices;
  readonly #user: AuthUser;
  #finished = false;

  constructor(services: CallServices, origin: CallOrigin) {
    this.#services = services;
    this.#user = origin.user;
    const { user } = origin;
    this.record = {
      // A collection token acts for no person: its calls are recorded under the token alone.
      userId: user.token?.kind === 'collection' ? null : user.id,
      ...(user.token ? { tokenId: user.token.id } : {}),
      dataSourceId: null,
      dataSourceUid: origin.uid,
      collectionId: null,
      channel: origin.channel,
      format: 'json',
      status: 200,
      durationMs: 0,
      rows: 0,
      bytes: 0,
      cacheHit: false,
      requestId: origin.requestId,
      ...(origin.client ? { client: origin.client } : {}),
    };
  }

  /**
   * The asset when the caller may call it, with the call counted against their limit (a refused call too, against
   * the general budget); the rate-limit fields go to `headers`.
   */
  async authorize(headers: HeaderSink): Promise<DataSourceDefinition> {
    const { calling, limits } = this.#services;
    let definition: DataSourceDefinition;
    try {
      definition = await callableAsset(calling, this.#user, this.record.dataSourceUid, this.timings);
    } catch (error) {
      await limits.consume(headers, this.#user);
      throw error;
    }
    await limits.consume(headers, this.#user, definition);
    Object.assign(this.record, {
      dataSourceId: definition.id,
      dataSourceName: definition.name,
      collectionId: definition.collection.id,
    });
    return definition;
  }

  /** Typed values, or a 400 with the errors map. */
  values(definition: DataSourceDefinition, raw: Record<string, unknown>): Record<string, unknown> {
    return checkValues(definition, raw);
  }

  /** The JSON result (from the cache or a run); the usage record is written once it is there. */
  async json(
    definition: DataSourceDefinition,
    values: Record<string, unknown>,
    signal?: AbortSignal,
    exchanges?: ExchangeLog,
  ): Promise<JsonCall> {
    let result: JsonCall;
    try {
      result = await callJson(
        this.#services.calling,
        definition,
        values,
        this.startedAt,
        this.timings,
        signal,
        exchanges,
      );
    } catch (error) {
      throw replyError(error);
    }
    this.finish({ rows: result.rows, bytes: result.body.length, cacheHit: result.cached });
    return result;
  }

  /** Writes the usage record (once): the outcome over what the call learnt. */
  finish(outcome: Partial<UsageRecord>) {
    if (this.#finished) return;
    this.#finished = true;
    this.#services.usage.record({ ...this.record, durationMs: performance.now() - this.startedAt, ...outcome });
  }

  /** Records a failed call with the status its error answers. */
  fail(error: unknown) {
    this.finish({ status: statusOf(error) });
  }
}
