import { describe, expect, it } from 'vitest';
import { bytesType, isDateTimeText, textType } from './rows.ts';

// isDateTimeText judges the ranges of a date-time text itself, where it once called Date.parse (~300 ns a cell). Its
// answer must stay exactly the old one: the character checks, then Date.parse not NaN. The old function is kept
// here as the oracle; the table pins what V8 accepts, and the fuzz holds the new function to the oracle — and to the
// same public function run on its library path (textType(text, 'date-parse')).

const isDigit = (code: number) => code >= 48 && code <= 57;
const twoDigits = (text: string, at: number) => isDigit(text.charCodeAt(at)) && isDigit(text.charCodeAt(at + 1));

/** The old function's character checks, as they were (`YYYY-MM-DD[Tt ]hh:mm[:ss[.f+]](Z|z|±hh[:]mm)`). */
function oldCharacterChecks(text: string): boolean {
  const length = text.length;
  if (length < 17) return false;
  for (let i = 0; i < 10; i += 1) {
    const code = text.charCodeAt(i);
    if (i === 4 || i === 7 ? code !== 45 : !isDigit(code)) return false;
  }
  const separator = text.charCodeAt(10);
  if (separator !== 84 && separator !== 116 && separator !== 32) return false;
  if (!twoDigits(text, 11) || text.charCodeAt(13) !== 58 || !twoDigits(text, 14)) return false;
  let at = 16;
  if (text.charCodeAt(at) === 58) {
    if (!twoDigits(text, at + 1)) return false;
    at += 3;
    if (text.charCodeAt(at) === 46) {
      const digits = at + 1;
      at = digits;
      while (at < length && isDigit(text.charCodeAt(at))) at += 1;
      if (at === digits) return false;
    }
  }
  const zone = text.charCodeAt(at);
  if (zone === 90 || zone === 122) {
    if (at + 1 !== length) return false;
  } else if (zone === 43 || zone === 45) {
    if (!twoDigits(text, at + 1)) return false;
    at += 3;
    if (text.charCodeAt(at) === 58) at += 1;
    if (at + 2 !== length || !twoDigits(text, at)) return false;
  } else return false;
  return true;
}

/** The old function: the character checks, then V8's Date.parse for the ranges. */
const oracle = (text: string) => oldCharacterChecks(text) && !Number.isNaN(Date.parse(text));

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const digits = (random: Random, count: number) => {
  let text = '';
  for (let i = 0; i < count; i += 1) text += String(Math.floor(random() * 10));
  return text;
};
const two = (value: number) => String(value).padStart(2, '0');

/** A field of `count` digits: mostly a value in `from`–`to`, else one at the edge of a range, or any digits at all. */
function field(random: Random, count: number, from: number, to: number, edges: readonly number[]): string {
  const roll = random();
  if (roll < 0.2) return String(pick(random, edges)).padStart(count, '0');
  if (roll < 0.3) return digits(random, count);
  return String(from + Math.floor(random() * (to - from + 1))).padStart(count, '0');
}

/** A fraction of 1 to 12 digits, often zeros with a digit somewhere (what 24:00 turns on). */
function fraction(random: Random): string {
  const length = 1 + Math.floor(random() * 12);
  if (random() < 0.5) return digits(random, length);
  const chars = Array.from({ length }, () => '0');
  if (random() < 0.8) chars[Math.floor(random() * length)] = String(1 + Math.floor(random() * 9));
  return chars.join('');
}

/** A text that passes the character checks, with random digits in every field. */
function dateTimeText(random: Random): string {
  const year = field(random, 4, 0, 9999, [0, 1, 5, 12, 13, 31, 32, 49, 50, 99, 1900, 2000, 2023, 2024, 9999]);
  const month = field(random, 2, 1, 12, [0, 1, 2, 4, 12, 13, 31, 32]);
  const day = field(random, 2, 1, 31, [0, 1, 28, 29, 30, 31, 32]);
  const separator = pick(random, ['T', 't', ' ']);
  const hour = field(random, 2, 0, 23, [0, 23, 24, 24, 24, 25]);
  // 24:00 turns on zero minutes, seconds and fraction: give it those often.
  const endOfDay = hour === '24' && random() < 0.7;
  let time = `${hour}:${endOfDay ? '00' : field(random, 2, 0, 59, [0, 59, 60])}`;
  if (random() < 0.7) {
    time += `:${endOfDay ? '00' : field(random, 2, 0, 59, [0, 59, 60])}`;
    if (random() < 0.6) time += `.${fraction(random)}`;
  }
  let zone: string = pick(random, ['Z', 'z']);
  if (random() < 0.6) {
    const hours = field(random, 2, 0, 23, [0, 5, 14, 23, 24, 99]);
    const minutes = field(random, 2, 0, 59, [0, 30, 59, 60, 99]);
    zone = `${pick(random, ['+', '-'])}${hours}${random() < 0.5 ? ':' : ''}${minutes}`;
  }
  return `${year}-${month}-${day}${separator}${time}${zone}`;
}

/** The text with one random edit: a character replaced, inserted or deleted, or the text cut short. */
function mutated(random: Random, text: string): string {
  const at = Math.floor(random() * text.length);
  const char = pick(random, [...'0123456789', ':', '-', '+', '.', 'T', 't', 'Z', 'z', ' ', 'x', '/', '\u0660']);
  switch (Math.floor(random() * 4)) {
    case 0:
      return text.slice(0, at) + char + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + char + text.slice(at);
    case 2:
      return text.slice(0, at) + text.slice(at + 1);
    default:
      return text.slice(0, at);
  }
}

/** The texts where isDateTimeText and the oracle disagree (the first few), and how many each way the oracle went. */
function disagreements(texts: Iterable<string>) {
  const found: { text: string; expected: boolean }[] = [];
  let accepted = 0;
  let refused = 0;
  for (const text of texts) {
    const expected = oracle(text);
    if (expected) accepted += 1;
    else refused += 1;
    const fast = isDateTimeText(text);
    const library = textType(text, 'date-parse') === 'datetime';
    if ((fast !== expected || library !== expected) && found.length < 10) found.push({ text, expected });
  }
  return { found, accepted, refused };
}

describe('isDateTimeText', () => {
  // What V8's Date.parse accepts (Node 24) once the characters are right. A T sends the text to V8's ISO parser; a
  // space to its legacy parser, which differs in the places marked.
  const cases: [string, boolean][] = [
    ['2024-01-03T08:20:00.000Z', true],
    ['2024-01-03t08:20:00.000z', true],
    ['2024-01-03 08:20:00.000Z', true],
    ['2024-01-03 08:20z', true],
    ['2024-01-03T08:20+05:30', true],
    ['2024-01-03T08:20-0530', true],
    // Months 01 to 12, days 01 to 31 in any month: Date rolls a 31st of April or a 29th of February over.
    ['2024-00-01T08:00Z', false],
    ['2024-13-01T08:00Z', false],
    ['2024-01-00T08:00Z', false],
    ['2024-01-32T08:00Z', false],
    ['2024-04-31T08:00Z', true],
    ['2024-02-31T08:00Z', true],
    ['2023-02-29T08:00Z', true],
    ['1900-02-29T08:00Z', true],
    ['2000-02-30T08:00Z', true],
    // Years 0000 to 9999 all fit Date's range.
    ['0000-01-01T00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['0000-01-01T00:00+23:59', true],
    ['9999-12-31T24:00-23:59', true],
    // Legacy: a year of 1 to 31 is read as the month, the month as the day and the day as the year.
    ['0005-13-07 08:00Z', true],
    ['0005-31-99 08:00Z', true],
    ['0012-01-00 08:00Z', true],
    ['0005-00-07 08:00Z', false],
    ['0005-32-07 08:00Z', false],
    ['0013-01-01 08:00Z', false],
    ['0031-01-01 08:00Z', false],
    ['0032-01-01 08:00Z', true],
    ['0032-13-07 08:00Z', false],
    ['0000-13-01 08:00Z', false],
    ['0005-13-07T08:00Z', false],
    // Hours to 23, minutes and seconds to 59 (no leap second); 24 only as 24:00, 24:00:00 or with a zero fraction.
    ['2024-01-01T23:59:59Z', true],
    ['2024-01-01T25:00Z', false],
    ['2024-01-01T08:60Z', false],
    ['2024-01-01T08:00:60Z', false],
    ['2024-01-01 08:60Z', false],
    ['2024-01-01 08:00:60.5Z', false],
    ['2024-01-01T24:00Z', true],
    ['2024-01-01T24:00:00Z', true],
    ['2024-01-01T24:00:00.000Z', true],
    ['2024-01-01T24:00:00.000000000000Z', true],
    ['2024-01-01T24:30Z', false],
    ['2024-01-01T24:00:01Z', false],
    ['2024-01-01T24:00:00.001Z', false],
    ['2024-01-01T24:00:00.0001Z', false],
    ['2024-01-01T24:00:00.0000000001Z', false],
    ['2024-01-01 24:00Z', true],
    ['2024-01-01 24:30Z', false],
    ['2024-01-01 24:00:00.001Z', false],
    // Legacy keeps milliseconds only: the first three places, or past nine places the first nine digits after the
    // leading zeros divided by 10^6.
    ['2024-01-01 24:00:00.0001Z', true],
    ['2024-01-01 24:00:00.000999999Z', true],
    ['2024-01-01 24:00:00.0000000001Z', true],
    ['2024-01-01 24:00:00.0000999999Z', true],
    ['2024-01-01 24:00:00.0001000000Z', false],
    ['2024-01-01 24:00:00.00000999999Z', true],
    ['2024-01-01 24:00:00.00001000000Z', false],
    // Fractions of any length: V8 keeps three places.
    ['2024-01-03T08:20:00.1Z', true],
    ['2024-01-03T08:20:00.12Z', true],
    ['2024-01-03T08:20:00.1234567891Z', true],
    ['2024-01-03T08:20:00.999999999999Z', true],
    ['2024-01-03 08:20:00.2147483647Z', true],
    // Offsets: ISO to ±23:59 either way; legacy minutes to 59 after a colon, and ±hhmm of any digits.
    ['2024-01-01T08:00+23:59', true],
    ['2024-01-01T08:00-2359', true],
    ['2024-01-01T08:00+24:00', false],
    ['2024-01-01T08:00+2400', false],
    ['2024-01-01T08:00+00:60', false],
    ['2024-01-01T08:00-0060', false],
    ['2024-01-01 08:00+24:00', true],
    ['2024-01-01 08:00-99:59', true],
    ['2024-01-01 08:00+00:60', false],
    ['2024-01-01 08:00+0060', true],
    ['2024-01-01 08:00-9999', true],
    // What the character checks refuse before any range: no offset, hours alone as an offset, a fraction without
    // seconds, an empty fraction.
    ['2024-01-03T08:20:00', false],
    ['2024-01-03T08:20+05', false],
    ['2024-01-03T08:20.5Z', false],
    ['2024-01-03T08:20:00.Z', false],
  ];

  it.each(cases)('%s is %s', (text, expected) => {
    expect(isDateTimeText(text)).toBe(expected);
    // The table is what V8 does: if a new V8 disagrees, the rules above need another look.
    expect(oracle(text)).toBe(expected);
  });

  it("reads a reply's bytes as it reads the string: only the text's own bytes, whatever follows them", () => {
    for (const [text] of cases) {
      for (const after of ['', '"', '0', ':00Z', '00+05:30']) {
        const bytes = Buffer.from(`{"${text}${after}`, 'latin1');
        expect(bytesType(bytes, 2, text.length), `${text} then ${after}`).toBe(textType(text));
      }
    }
    expect(textType('2024-01-03')).toBe('date');
    expect(textType('2024-01-03T08:20:00Z')).toBe('datetime');
    expect(textType('2024-01-03T08:20:00Zé')).toBe('string');
  });

  it('agrees with the character checks and Date.parse on every value of each field, the others kept valid', () => {
    const texts: string[] = [];
    for (let value = 0; value < 100; value += 1) {
      const v = two(value);
      for (const separator of ['T', ' ']) {
        for (const year of ['00', '19', '20', '99']) texts.push(`${year}${v}-05-07${separator}08:20Z`);
        texts.push(`2024-${v}-07${separator}08:20Z`, `0005-${v}-07${separator}08:20Z`);
        texts.push(`2024-05-${v}${separator}08:20Z`, `0005-05-${v}${separator}08:20Z`);
        texts.push(`2024-05-07${separator}${v}:00Z`, `2024-05-07${separator}${v}:00:00.000Z`);
        texts.push(`2024-05-07${separator}08:${v}Z`, `2024-05-07${separator}24:${v}Z`);
        texts.push(`2024-05-07${separator}08:20:${v}Z`, `2024-05-07${separator}24:00:${v}.0Z`);
        // toISOString's own shape, which has a quick check of its own: each field through every value.
        texts.push(`2024-${v}-07${separator}08:20:00.000Z`, `2024-05-${v}${separator}08:20:00.000Z`);
        texts.push(`2024-05-07${separator}08:${v}:00.000Z`, `2024-05-07${separator}08:20:${v}.000Z`);
        texts.push(`2024-05-07${separator}24:00:00.${v}0Z`, `${v}24-05-07${separator}08:20:00.${v}9z`);
        for (const sign of ['+', '-']) {
          texts.push(`2024-05-07${separator}08:20${sign}${v}:30`, `2024-05-07${separator}08:20${sign}${v}30`);
          texts.push(`2024-05-07${separator}08:20${sign}05:${v}`, `2024-05-07${separator}08:20${sign}05${v}`);
        }
      }
    }
    const { found } = disagreements(texts);
    expect(found).toEqual([]);
  });

  it('agrees with the character checks and Date.parse on random date-time texts and their mutations', () => {
    const seed = 20_240_103;
    const random = seeded(seed);
    const texts: string[] = [];
    for (let i = 0; i < 60_000; i += 1) {
      const text = dateTimeText(random);
      texts.push(text, mutated(random, text), mutated(random, mutated(random, text)));
    }
    const { found, accepted, refused } = disagreements(texts);
    expect(found, `seed ${seed}`).toEqual([]);
    // The fuzz is only worth something if both answers come up often.
    expect(accepted).toBeGreaterThan(20_000);
    expect(refused).toBeGreaterThan(20_000);
  }, 30_000);
});
