const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A date-time for people; '' when missing or invalid. */
export function formatDateTime(date: Date | null | undefined): string {
  if (date === null || date === undefined) return '';
  return Number.isNaN(date.getTime()) ? '' : dateTime.format(date);
}

/** '1 data asset', '3 data assets'. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? singular : pluralForm}`;
}

/** A duration for people: '0.12 ms', '3.4 ms', '1,250 ms'. */
export function formatMs(ms: number): string {
  const digits = ms < 10 ? 2 : ms < 100 ? 1 : 0;
  return `${ms.toLocaleString(undefined, { maximumFractionDigits: digits, minimumFractionDigits: digits })} ms`;
}

const BYTE_UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB'] as const;

/** '512 bytes', '1.5 kB', '64 MB' (powers of 1024): one way of showing sizes on every screen. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toLocaleString('en', { maximumFractionDigits: digits })} ${BYTE_UNITS[unit]}`;
}
