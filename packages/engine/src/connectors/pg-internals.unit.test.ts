import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pg from 'pg';
import Result from 'pg/lib/result.js';
import { prepareValue } from 'pg/lib/utils.js';
import { describe, expect, it } from 'vitest';

// The one-packet PostgreSQL run (postgres-run.ts) drives pg below its public API: it is a submittable whose handle*
// methods pg's Client calls for each protocol message, it writes messages through the Connection's own methods, and
// it parses rows with pg's Result and binds values with pg's prepareValue. None of that is documented API, so an
// upgrade of pg that renames or drops any of it must fail here, loudly, before a run fails in production. The
// behaviour itself (one round trip, streaming, errors, prepared statements) is tested against a real PostgreSQL in
// postgres.int.test.ts.

const require = createRequire(import.meta.url);
const clientSource = readFileSync(require.resolve('pg/lib/client.js'), 'utf8');

/** The handlers postgres-run.ts defines, each as pg's Client calls it on the active query. */
const HANDLERS = [
  'handleRowDescription(msg)',
  'handleDataRow(msg)',
  'handlePortalSuspended(this.connection)',
  'handleCommandComplete(msg, this.connection)',
  'handleEmptyQuery(this.connection)',
  'handleError(msg, this.connection)',
  'handleReadyForQuery(this.connection)',
  'handleCopyInResponse(this.connection)',
  'handleCopyData(msg, this.connection)',
];

describe('the pg internals the PostgreSQL runner relies on', () => {
  it('is the major version the runner was written against', () => {
    const { version } = require('pg/package.json') as { version: string };
    expect(version.split('.')[0]).toBe('8');
  });

  it('hands the active query its connection and calls each handler the runner defines', () => {
    expect(clientSource).toMatch(/\.submit\(this\.connection\)/);
    for (const call of HANDLERS) expect(clientSource, call).toContain(`activeQuery.${call}`);
  });

  it("writes protocol messages through the Connection's methods, on a stream that can be corked", () => {
    const connection = new pg.Connection() as unknown as Record<string, unknown>;
    for (const method of ['parse', 'bind', 'describe', 'execute', 'close', 'flush', 'sync']) {
      expect(typeof connection[method], method).toBe('function');
    }
    const stream = connection['stream'] as { cork?: unknown; uncork?: unknown };
    expect(typeof stream.cork).toBe('function');
    expect(typeof stream.uncork).toBe('function');
  });

  it("parses rows with pg's Result and binds values with prepareValue as pg does", () => {
    const result = new Result(undefined, undefined);
    result.addFields([{ name: 'n', dataTypeID: 23, format: 'text' } as pg.FieldDef]);
    expect(result.parseRow(['42'])).toEqual({ n: 42 });
    expect(prepareValue(new Date('2026-01-02T03:04:05.000Z'))).toMatch(/^2026-01-0[12]T/);
    expect(prepareValue([1, 2])).toBe('{"1","2"}');
    expect(prepareValue(null)).toBeNull();
  });
});
