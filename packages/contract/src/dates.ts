import { z } from 'zod';

// product §3: dates arriving as ISO date-time strings become Date objects; outgoing dates become a UTC date.
//
// The contract says where a date-time is: `isoDateTime` is ISO 8601 text on the wire and a Date in
// the app, so the server encodes its Dates and the client decodes the text with the call's schema.
// reviveDates and replaceDates are the same rule for data that has no schema.

/** A date-time: ISO 8601 text (with Z or an offset) on the wire, a Date in the app. */
export const isoDateTime = z.codec(z.iso.datetime({ offset: true }), z.date(), {
  decode: (text) => new Date(text),
  encode: (date) => date.toISOString(),
});

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export function isIsoDateTime(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** JSON.parse reviver for data without a schema: ISO date-time strings become Date objects. */
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
