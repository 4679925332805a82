import { describe, expect, it } from 'vitest';
import { Gate } from './gate.ts';

describe('Gate', () => {
  it('hands free slots at once, queues a bounded number of waiters, and times waiters out', async () => {
    const gate = new Gate({ size: 1, acquireTimeoutMs: 50, maxWaiting: 1 });
    const release = await gate.acquire();
    const waiting = gate.acquire();
    await expect(gate.acquire()).rejects.toMatchObject({ code: 'POOL_EXHAUSTED' }); // the queue is full
    await expect(waiting).rejects.toMatchObject({ code: 'POOL_EXHAUSTED' }); // the waiter timed out
    expect(gate.waiting).toBe(0);
    release();
    release(); // idempotent: must not free a second slot
    expect(gate.inUse).toBe(0);
  });

  it('passes a released slot to the next waiter, and drops an aborted waiter', async () => {
    const gate = new Gate({ size: 1, acquireTimeoutMs: 1000 });
    const release = await gate.acquire();
    const controller = new AbortController();
    const aborted = gate.acquire(controller.signal);
    const next = gate.acquire();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'CANCELLED' });
    release();
    const releaseNext = await next;
    expect(gate.inUse).toBe(1);
    releaseNext();
    expect(gate.inUse).toBe(0);
  });
});
