import { describe, expect, it } from 'vitest';
import { cacheValue, fromCacheValue, jsonReply, jsonResult } from './results.ts';

const written = Buffer.from('{"columns":[],"rows":[\n{"a":1}\n],"truncated":false,"durationMs":7,"cached":false}');

describe('cached JSON results', () => {
  const result = jsonResult(written, { rows: 1, bytes: written.length, truncated: false });

  it('serve a quick hit as the stored bytes, and any other as the head with its own closing members', () => {
    const cached = fromCacheValue(cacheValue(result));
    expect(cached.rows).toBe(1);
    const quick = jsonReply(cached, 0.4, true);
    expect(quick.toString()).toBe('{"columns":[],"rows":[\n{"a":1}\n],"truncated":false,"durationMs":0,"cached":true}');
    expect(quick.buffer).toBe(cached.quick?.buffer); // no copy
    expect(jsonReply(cached, 2.6, true).toString()).toBe(
      '{"columns":[],"rows":[\n{"a":1}\n],"truncated":false,"durationMs":3,"cached":true}',
    );
    expect(jsonReply(cached, 0, true, ',"exchanges":[]').toString()).toContain('"cached":true,"exchanges":[]}');
  });

  it('read values stored before the quick tail was kept', () => {
    const old = Buffer.concat([Buffer.from('12\n'), result.head]);
    const cached = fromCacheValue(old);
    expect(cached.rows).toBe(12);
    expect(cached.quick).toBeUndefined();
    expect(JSON.parse(jsonReply(cached, 0, true).toString())).toMatchObject({ durationMs: 0, cached: true });
  });
});
