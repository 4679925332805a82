// Reading a Server-Timing header (W3C): `name;dur=1.5;desc="…", other;dur=0.2`. Entries without a duration and
// parameters other than `dur` are ignored; a repeated name keeps its first duration, as the Resource Timing API does.

export function parseServerTiming(header: string | null | undefined): Record<string, number> {
  const timings: Record<string, number> = {};
  if (!header) return timings;
  // Commas inside a quoted description do not separate entries.
  for (const entry of header.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/gu) ?? []) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim());
    const duration = params.find((param) => /^dur\s*=/iu.test(param))?.replace(/^dur\s*=\s*/iu, '');
    const ms = duration === undefined ? Number.NaN : Number(duration.replaceAll('"', ''));
    if (name && Number.isFinite(ms) && !(name in timings)) timings[name] = ms;
  }
  return timings;
}

export { formatMs } from '../../../lib/format.ts';
