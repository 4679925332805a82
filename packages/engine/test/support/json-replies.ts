// Web API replies for the JSON scan's tests (tests only): mostly pages of same-shaped rows, now and then one the
// scan must decline, and one-byte mutations of them.

/** A small deterministic generator, so a failure can be replayed. */
export function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

export type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const TEXTS = [
  'north',
  'order note 4f1c',
  'é and ü',
  '😀',
  'a "quoted" word',
  'back\\slash',
  'tab\there',
  'line\nbreak',
  '',
];
const DATES = ['2024-01-02', '2024-13-02', '0000-00-00', '2024-1-02', '20240102', '2024-02-30'];
const DATE_TIMES = [
  '2024-01-03T08:20:00.000Z',
  '2024-01-03T08:20:00Z',
  '2024-01-03 08:20:00+02:00',
  '2024-01-03t08:20z',
  '2024-01-03T24:00:00Z',
  '2024-01-03T24:00:01Z',
  '2024-01-03T08:61:00Z',
  '2024-01-03T08:20:00+0530',
  '2024-01-03T08:20:00',
];
/** Number texts as an upstream may write them (JSON.parse reads each). */
const NUMBERS = ['0', '7', '-42', '123456789012345', '1234567890123456', '98765432109876543210', '1.5', '-0.25'];
const MORE_NUMBERS = ['-0', '1e3', '1E-3', '2.0', '1e400', '-1e400', '5e-324', '9007199254740993'];

/** A cell's JSON text, of the column's usual kind most of the time and of any kind now and then. */
function cellText(random: Random, kind: number): string {
  const roll = random();
  const k = roll < 0.8 ? kind : Math.floor(random() * 7);
  switch (k) {
    case 0:
      return pick(random, NUMBERS);
    case 1:
      return random() < 0.8 ? pick(random, NUMBERS) : pick(random, MORE_NUMBERS);
    case 2:
      return JSON.stringify(pick(random, TEXTS)).replace('\\u00e9', random() < 0.5 ? 'é' : '\\u00e9');
    case 3:
      return JSON.stringify(pick(random, DATES));
    case 4:
      return JSON.stringify(pick(random, DATE_TIMES));
    case 5:
      return pick(random, ['true', 'false', 'null', 'null']);
    default:
      return pick(random, ['{"a":1,"b":[true,null]}', '[]', '{}', '[1,"x",{"y":2}]', '{ "spaced" : [ 1 , 2 ] }']);
  }
}

const KEYS = ['id', 'name', 'amount', 'created_at', 'day', 'flag', 'extra', 'ünï', '__proto__', 'a b'];

/** A reply: mostly rows of one shape, compact; sometimes with spaces, line breaks, other shapes or other wrappers. */
export function randomReply(random: Random): { text: string; rowsPath: string } {
  const keys = KEYS.filter(() => random() < 0.5).slice(0, 6);
  if (keys.length === 0) keys.push('id');
  if (random() < 0.03) keys.push('1');
  const kinds = keys.map(() => Math.floor(random() * 7));
  const space = () => (random() < 0.97 ? '' : pick(random, [' ', '\t', '\n', '\r\n', '  ', ' ', '\t']));
  const rows: string[] = [];
  const count = 1 + Math.floor(random() * 8);
  for (let r = 0; r < count; r += 1) {
    let rowKeys = keys;
    if (random() < 0.01) rowKeys = [...keys].reverse();
    if (random() < 0.01) rowKeys = keys.slice(1);
    if (random() < 0.01) rowKeys = [...keys, keys[0]!];
    if (random() < 0.01)
      return { text: `[${rows.join(',')}${rows.length ? ',' : ''}${cellText(random, 2)}]`, rowsPath: '' };
    const members = rowKeys.map((key, index) => {
      const name = random() < 0.02 ? JSON.stringify(key).replace('i', '\\u0069') : JSON.stringify(key);
      return `${space()}${name}${space()}:${space()}${cellText(random, kinds[index] ?? 2)}${space()}`;
    });
    rows.push(`${space()}{${members.join(',')}}${space()}`);
  }
  const array = `[${rows.join(random() < 0.3 ? ',\n' : ',')}]`;
  const wrapper = Math.floor(random() * 4);
  if (wrapper === 0) return { text: array, rowsPath: '' };
  if (wrapper === 1) return { text: `{"page":3,"data":${array},"next":"/v1?page=4"}`, rowsPath: 'data' };
  if (wrapper === 2) return { text: `{"result":{"total":9,"items":${array}},"ok":true}`, rowsPath: 'result.items' };
  return { text: `\uFEFF {"meta":{"data":[]},"data":${array}}\n`, rowsPath: 'data' };
}

/** One byte changed, dropped or added: mostly not JSON any more. */
export function mutate(random: Random, text: Buffer): Buffer {
  const at = Math.floor(random() * text.length);
  const byte = pick(random, [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x0a, 0x01, 0x30, 0x2e, 0x65, 0x80, 0xff]);
  const mode = Math.floor(random() * 3);
  if (mode === 0) return Buffer.concat([text.subarray(0, at), text.subarray(at + 1)]);
  if (mode === 1) return Buffer.concat([text.subarray(0, at), Buffer.from([byte]), text.subarray(at)]);
  const copy = Buffer.from(text);
  copy[at] = byte;
  return copy;
}
