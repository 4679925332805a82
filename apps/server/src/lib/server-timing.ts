// Server-Timing (W3C) entries, written for every /api and /data reply.

/**
 * A duration in milliseconds with three decimals, as toFixed(3) writes it ('0.012'), negative ones as 0. Whole
 * microseconds are written as integers: toFixed's exact decimal conversion costs more than the rest of the header,
 * and a call writes up to six.
 */
export function durationText(ms: number): string {
  const micros = Math.round(Math.max(0, ms) * 1000);
  if (!Number.isSafeInteger(micros)) return Math.max(0, ms).toFixed(3);
  const whole = Math.floor(micros / 1000);
  const fraction = micros - whole * 1000;
  return `${whole}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/** One entry: 'authz;dur=0.012'. */
export const timingEntry = (name: string, ms: number): string => `${name};dur=${durationText(ms)}`;
