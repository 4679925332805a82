import type pg from 'pg';
import Result from 'pg/lib/result.js';
import { prepareValue } from 'pg/lib/utils.js';
import type { Row } from '../types.ts';

// Target: Q100 cache off ≥ 0.8 × bare Fastify + pg (bench/RESULTS.md, "The calling layer"); oracle: postgres.int.test.ts
// runs both runners; switch: createPostgresConnector(settings, { runner: 'query' }) runs every statement with client.query.
//
// One run of a statement on a leased connection, driven over the extended protocol so that the transaction's set-up
// travels with the statement: BEGIN READ ONLY, SET LOCAL statement_timeout and Parse/Bind/Describe/Execute leave in
// one packet (one round trip instead of three). When the caller reads at most a known number of rows (an
// interactive call), ROLLBACK and Sync join that packet too and the whole run is one round trip, like a plain
// pool.query; otherwise further batches are fetched on demand and the end (Close, ROLLBACK, Sync) is one more.
// Every run ends with ROLLBACK, never COMMIT: a read-only transaction still lets a few functions change something
// (lo_import creates a large object), and nothing a run did may outlast it.
//
// pg calls the handle* methods of the active submittable for every message until ReadyForQuery; the server skips
// everything after an error until Sync, so a failed run answers with one error and one ReadyForQuery.

/** The wire-level part of pg's Connection that a submittable writes to. */
interface Wire {
  parse(message: { text: string; name?: string }): void;
  bind(message: { portal?: string; statement?: string; values?: unknown[] }): void;
  describe(message: { type: 'P' | 'S'; name?: string }): void;
  execute(message: { portal?: string; rows?: number }): void;
  close(message: { type: 'P' | 'S'; name?: string }): void;
  flush(): void;
  sync(): void;
  stream?: { cork?: () => void; uncork?: () => void };
}

interface FieldMessage {
  fields: pg.FieldDef[];
}

type Waiter = { resolve: (rows: Row[]) => void; reject: (error: unknown) => void };

/**
 * The portal a run reads from. One name serves every run: a connection runs one statement at a time, and the portal
 * ends with the run's transaction.
 */
const PORTAL = 'datalab_run';

/** Statements kept prepared on one connection; the oldest used is closed to make room. */
const MAX_PREPARED = 100;

/**
 * Statements prepared on each pooled connection (text → name, least recently used first). A prepared statement skips
 * PostgreSQL's parsing and analysis, and its planning once a generic plan is no worse (PostgreSQL's plan cache):
 * 35–55 µs of the database's CPU a Q100 call on this machine (decision 125). A connection that fails a run is
 * destroyed, its statements with it; reset() forgets them all after a schema change made one unusable.
 */
export class PreparedStatements {
  #byConnection = new WeakMap<object, Map<string, string>>();
  /** Names stay new after reset(): a connection still holds the statements it prepared before. */
  #next = 1;

  /** Every connection prepares its statements afresh, under new names (the old ones go with their connections). */
  reset(): void {
    this.#byConnection = new WeakMap();
  }

  /** The statement's name on this connection; new there, its Parse is written first (and a Close makes room). */
  use(wire: Wire, text: string): string {
    let names = this.#byConnection.get(wire);
    if (!names) {
      names = new Map();
      this.#byConnection.set(wire, names);
    }
    const known = names.get(text);
    if (known !== undefined) {
      names.delete(text);
      names.set(text, known);
      return known;
    }
    if (names.size >= MAX_PREPARED) {
      const [oldest, name] = names.entries().next().value as [string, string];
      names.delete(oldest);
      wire.close({ type: 'S', name });
    }
    const name = `datalab_${this.#next++}`;
    wire.parse({ name, text });
    names.set(text, name);
    return name;
  }
}

/** Writes the messages of `send` as one packet. */
function packet(wire: Wire, send: () => void): void {
  wire.stream?.cork?.();
  try {
    send();
  } finally {
    wire.stream?.uncork?.();
  }
}

/** The statement's name to bind: prepared on the connection, or the unnamed statement parsed just now. */
function statement(wire: Wire, text: string, prepared: PreparedStatements | undefined): string {
  if (prepared) return prepared.use(wire, text);
  wire.parse({ text });
  return '';
}

/** A statement with no parameters and no rows, run inside the pipeline (unnamed portal). */
function simple(wire: Wire, text: string, prepared: PreparedStatements | undefined): void {
  wire.bind({ statement: statement(wire, text, prepared) });
  wire.execute({});
}

export interface PipelinedRunOptions {
  text: string;
  values: unknown[];
  timeoutMs: number;
  /** Rows fetched by the first Execute. */
  batch: number;
  /** Commit in the first packet: the run ends after `batch` rows (the caller reads no more). */
  single: boolean;
  types: pg.CustomTypesConfig;
  /**
   * Keep each row as the database's texts (an array, null for NULL) instead of typing it: the caller types them
   * when it needs values (see TextRows).
   */
  texts?: boolean;
  /** The connector's prepared statements; without them every statement is parsed afresh (the unnamed statement). */
  prepared?: PreparedStatements;
}

/**
 * A pg submittable (client.query(run)) for one read-only statement. `next()` resolves with the next batch of rows
 * ([] once there are no more). In a single run the rows arrive with the connection ready for reuse. Streamed, one
 * batch is fetched ahead while the caller works on the current one (the database and the writer overlap; at most
 * three batches are held) and `finish()` ends the transaction (rolled back). `clean` tells whether the connection may be reused.
 */
export class PipelinedRun {
  readonly #options: PipelinedRunOptions;
  readonly #result: Result;
  #wire: Wire | undefined;
  /** Rows of the Execute on its way. */
  #current: Row[] = [];
  /** Fetched batches the caller has not taken yet. */
  #batches: Row[][] = [];
  /** CommandCompletes seen: BEGIN, SET, the statement, ROLLBACK. */
  #completions = 0;
  /** An Execute is on its way: its rows are not all here yet. */
  #inFlight = true;
  /** The statement has no more rows to fetch. */
  #exhausted = false;
  #error: unknown;
  #waiter: Waiter | undefined;
  #endSent = false;
  #ready = false;
  #clean = false;
  #ended: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void };
  /** More rows were there than a single run fetched (PortalSuspended). */
  suspended = false;
  /** The statement's columns (empty for a statement without a result set), once described. */
  fields: pg.FieldDef[] = [];

  constructor(options: PipelinedRunOptions) {
    this.#options = options;
    this.#result = new Result(undefined, options.types);
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    promise.catch(() => undefined); // observed through next() or finish()
    this.#ended = { promise, resolve, reject };
  }

  /** Whether the transaction ended with our ROLLBACK and the connection is idle: only then may it be reused. */
  get clean(): boolean {
    return this.#clean;
  }

  submit(connection: unknown): void {
    const wire = connection as Wire;
    this.#wire = wire;
    const { text, values, timeoutMs, batch, single, prepared } = this.#options;
    packet(wire, () => {
      simple(wire, 'BEGIN READ ONLY', prepared);
      simple(wire, `SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(timeoutMs))}`, prepared);
      const name = statement(wire, text, prepared);
      wire.bind({ portal: PORTAL, statement: name, values: values.map((value) => prepareValue(value)) });
      wire.describe({ type: 'P', name: PORTAL });
      wire.execute({ portal: PORTAL, rows: batch });
      if (single) {
        simple(wire, 'ROLLBACK', prepared);
        wire.sync();
        this.#endSent = true;
      } else {
        wire.flush();
      }
    });
  }

  /** The next batch ([] once the statement has no more). */
  next(): Promise<Row[]> {
    if (this.#error !== undefined) return Promise.reject(this.#error);
    if (this.#waiter) return Promise.reject(new Error('a batch is already being read'));
    const promise = new Promise<Row[]>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
    this.#deliver();
    this.#fetchAhead();
    return promise;
  }

  /** Ends the transaction (Close, ROLLBACK, Sync in one packet, unless sent already); resolves when ready for reuse. */
  finish(): Promise<void> {
    if (!this.#endSent && this.#wire && this.#error === undefined) {
      const wire = this.#wire;
      this.#endSent = true;
      packet(wire, () => {
        wire.close({ type: 'P', name: PORTAL });
        simple(wire, 'ROLLBACK', this.#options.prepared);
        wire.sync();
      });
    }
    return this.#ended.promise;
  }

  /** Streamed: keeps one Execute on its way while at most one fetched batch waits for the caller. */
  #fetchAhead(): void {
    if (this.#options.single || this.#inFlight || this.#exhausted || this.#endSent) return;
    if (this.#batches.length > 1 || !this.#wire || this.#error !== undefined) return;
    const wire = this.#wire;
    this.#inFlight = true;
    packet(wire, () => {
      wire.execute({ portal: PORTAL, rows: this.#options.batch });
      wire.flush();
    });
  }

  /** Hands the caller a batch when one is there: a single run's rows once the connection is ready. */
  #deliver(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    let batch: Row[] | undefined;
    if (this.#options.single) {
      if (!this.#ready) return;
      batch = this.#current;
      this.#current = [];
    } else {
      batch = this.#batches.shift();
      if (!batch && this.#exhausted && !this.#inFlight) batch = [];
    }
    if (!batch) return;
    this.#waiter = undefined;
    waiter.resolve(batch);
  }

  /** The Execute on its way has delivered all its rows. */
  #batchDone(): void {
    this.#inFlight = false;
    if (this.#current.length > 0) this.#batches.push(this.#current);
    this.#current = [];
    this.#deliver();
    this.#fetchAhead();
  }

  handleRowDescription(message: FieldMessage): void {
    this.fields = message.fields;
    if (!this.#options.texts) this.#result.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    // pg-protocol makes a new array of texts for every row: kept as it is in text mode.
    this.#current.push(
      this.#options.texts ? (message.fields as unknown as Row) : this.#result.parseRow(message.fields),
    );
  }

  handlePortalSuspended(): void {
    if (this.#options.single) {
      this.#completions += 1; // the statement ends here: ROLLBACK closes its portal
      this.suspended = true;
      this.#exhausted = true;
      return;
    }
    this.#batchDone();
  }

  handleCommandComplete(): void {
    this.#completions += 1;
    if (this.#completions === 4) this.#clean = true; // ROLLBACK
    if (this.#completions !== 3) return; // BEGIN, SET
    this.#exhausted = true;
    if (this.#options.single) return;
    void this.finish();
    this.#batchDone();
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  handleError(error: unknown): void {
    if (this.#error !== undefined) return;
    this.#error = error;
    this.#clean = false;
    // The server skips everything up to Sync: send one unless it is on its way, so ReadyForQuery ends the run.
    if (!this.#endSent && this.#wire) {
      this.#endSent = true;
      this.#wire.sync();
    }
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.reject(error);
    this.#ended.reject(error);
  }

  handleReadyForQuery(): void {
    this.#ready = true;
    this.#inFlight = false;
    this.#exhausted = true;
    if (this.#error !== undefined) return;
    if (!this.#clean) {
      // ReadyForQuery without our ROLLBACK: cannot happen on this protocol; never reuse such a connection.
      this.handleError(new Error('the run ended without its rollback'));
      return;
    }
    this.#deliver();
    this.#ended.resolve();
  }

  handleCopyInResponse(): void {
    this.handleError(new Error('COPY is not allowed here'));
  }

  handleCopyData(): void {}
}
