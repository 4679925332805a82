import { expect, it } from 'vitest';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';
import { describeApp } from '../../../test/support/suite.ts';

// Server-Timing on /data/v1 replies: authz as on /api routes, then queue, database, transform and write for a JSON
// call; what is known before the first byte for an export; the cache lookup for a hit; authz on a refusal. The
// JSON body keeps its shape: the timings travel in the header only.

/** The header's entries by name: 'authz;dur=0.012, queue;dur=0.003' → { authz: 0.012, queue: 0.003 }. */
function timingsOf(header: string | string[] | number | undefined): Record<string, number> {
  expect(typeof header, `Server-Timing: ${String(header)}`).toBe('string');
  const entries: Record<string, number> = {};
  for (const entry of String(header).split(',')) {
    const [name = '', ...params] = entry.trim().split(';');
    const duration = params.find((param) => param.startsWith('dur='));
    expect(duration, entry).toMatch(/^dur=\d+\.\d{3}$/);
    entries[name] = Number(duration?.slice(4));
  }
  return entries;
}

describeApp('calling layer: Server-Timing', (context) => {
  const world = useOrdersWorld(context);

  const masked = {
    sql: 'select id, customer from orders where amount >= :least order by id',
    parameters: [{ name: 'least', type: 'integer', required: true }],
    rules: [{ type: 'mask', column: 'customer', mode: 'hash' }],
  };

  it('reports authz, queue, database, transform and write on a JSON reply, whose body keeps its shape', async () => {
    const asset = await world.asset(world.sqliteConnection, masked);
    const response = await world.reader.call('GET', `/data/v1/${asset.uid}?least=50`);
    expect(response.statusCode).toBe(200);
    const timings = timingsOf(response.headers['server-timing']);
    expect(Object.keys(timings)).toEqual(['authz', 'queue', 'database', 'transform', 'write']);
    for (const ms of Object.values(timings)) expect(ms).toBeGreaterThanOrEqual(0);
    expect(Object.keys(response.json()).sort()).toEqual(['cached', 'columns', 'durationMs', 'rows', 'truncated']);
  });

  it('reports the stages of a PostgreSQL run too', async () => {
    const asset = await world.asset(world.postgresConnection, masked);
    const response = await world.reader.call('POST', `/data/v1/${asset.uid}`, { least: 50 });
    expect(response.statusCode).toBe(200);
    // The PostgreSQL connector may not report when it got its connection: its queue is then database time.
    expect(timingsOf(response.headers['server-timing'])).toMatchObject({
      authz: expect.any(Number),
      database: expect.any(Number),
      transform: expect.any(Number),
      write: expect.any(Number),
    });
  });

  it('reports what is known before the first byte on CSV exports, streamed and through COPY', async () => {
    const streamed = await world.asset(world.sqliteConnection, masked);
    const csv = await world.reader.call('GET', `/data/v1/${streamed.uid}?least=50&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(Object.keys(timingsOf(csv.headers['server-timing']))).toEqual(['authz', 'queue', 'database']);

    const plain = await world.asset(world.postgresConnection, { ...masked, rules: [] });
    const copied = await world.reader.call('GET', `/data/v1/${plain.uid}?least=50&format=csv`);
    expect(copied.statusCode).toBe(200);
    expect(copied.body.split('\r\n')[0]).toBe('id,customer');
    expect(timingsOf(copied.headers['server-timing'])).toMatchObject({
      authz: expect.any(Number),
      database: expect.any(Number),
    });
  });

  it('reports the cache lookup and the write, and no run, for a reply from the cache', async () => {
    const asset = await world.asset(world.sqliteConnection, { ...masked, cacheTtlSeconds: 60 });
    const first = await world.reader.call('GET', `/data/v1/${asset.uid}?least=70`);
    expect(Object.keys(timingsOf(first.headers['server-timing']))).toEqual([
      'authz',
      'cache',
      'queue',
      'database',
      'transform',
      'write',
    ]);
    const second = await world.reader.call('GET', `/data/v1/${asset.uid}?least=70`);
    expect(second.json()).toMatchObject({ cached: true });
    expect(Object.keys(timingsOf(second.headers['server-timing']))).toEqual(['authz', 'cache', 'write']);
  });

  it('reports authz on refusals: a hidden asset and a value of the wrong type', async () => {
    const asset = await world.asset(world.sqliteConnection, masked);
    const hidden = await world.stranger.call('GET', `/data/v1/${asset.uid}?least=1`);
    expect(hidden.statusCode).toBe(404);
    expect(Object.keys(timingsOf(hidden.headers['server-timing']))).toEqual(['authz']);
    const invalid = await world.reader.call('GET', `/data/v1/${asset.uid}?least=many`);
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(timingsOf(invalid.headers['server-timing']))).toEqual(['authz']);
  });
});
