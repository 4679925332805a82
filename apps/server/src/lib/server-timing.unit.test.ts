import { describe, expect, it } from 'vitest';
import { durationText, timingEntry } from './server-timing.ts';

describe('durationText', () => {
  it('writes what toFixed(3) writes, to the microsecond, for durations of every size', () => {
    const samples = [0, 0.0004, 0.0005, 0.001, 0.009, 0.01, 0.099, 0.1, 1, 12.3456, 999.9994, 1000, 86_400_000.123];
    for (let index = 0; index < 20_000; index += 1) samples.push(Math.random() * 10 ** Math.floor(Math.random() * 8));
    for (const ms of samples) {
      const text = durationText(ms);
      expect(text, String(ms)).toMatch(/^\d+\.\d{3}$/);
      // The two may round a tie (…5 exactly at the fourth decimal, as the binary value holds it) differently.
      expect(Math.abs(Number(text) - Number(ms.toFixed(3))), String(ms)).toBeLessThanOrEqual(0.001 + 1e-9);
      if (Math.abs(ms * 1000 - Math.round(ms * 1000)) < 0.4) expect(text, String(ms)).toBe(ms.toFixed(3));
    }
  });

  it('writes a negative duration as 0 and keeps what is not a number as toFixed does', () => {
    expect(durationText(-0.5)).toBe('0.000');
    expect(durationText(Number.NaN)).toBe('NaN');
    expect(durationText(1e300)).toBe((1e300).toFixed(3));
    expect(timingEntry('authz', 0.0123)).toBe('authz;dur=0.012');
  });
});
