// SPEC §3: dates arriving as ISO date-time strings become Date objects; outgoing dates become a UTC date.

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** JSON.parse reviver: ISO date-time strings become Date objects. */
export function reviveDates(_key: string, value: unknown): unknown {
  return isIsoDateTime(value) ? new Date(value) : value;
}

/** A Date reduced to its UTC calendar date, as 'YYYY-MM-DD'. */
export function toUtcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** JSON.stringify replacer: Date values leave as UTC dates. */
export function replaceDates(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown> | undefined)?.[key];
  return original instanceof Date ? toUtcDate(original) : value;
}
