import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOKEN_PATTERN_SOURCE } from './api/tokens.ts';
import { ECHOED_ID_MAX_LENGTH, REDACTED, echoedId, redactDeep, redactSecrets } from './redact.ts';

// Anything shaped like a token leaves redactSecrets as its prefix and a marker; everything else is kept as it was.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// Random text draws from base62 (so tokens touch letters on both sides), punctuation, spaces and non-ASCII.
const NOISE = `${BASE62}  _-/=:;,.?&%"'\n\té€😀`;
const pick = (alphabet: string, length: number) =>
  Array.from({ length }, () => [...alphabet][randomInt([...alphabet].length)]).join('');
const secret = () => `${randomInt(2) === 0 ? 'dlp_' : 'dlc_'}${pick(BASE62, 46)}`;

describe('redactSecrets', () => {
  it('replaces a token by its prefix and the marker, wherever it stands', () => {
    const personal = secret();
    expect(redactSecrets(`GET /data/v1/${personal}`)).toBe(`GET /data/v1/${personal.slice(0, 4)}${REDACTED}`);
    expect(redactSecrets(`DATALAB_TOKEN=${personal}\n`)).toBe(`DATALAB_TOKEN=${personal.slice(0, 4)}${REDACTED}\n`);
    // Glued to letters on either side, where the scanner's word boundaries would miss it.
    expect(redactSecrets(`x${personal}yz`)).toBe(`x${personal.slice(0, 4)}${REDACTED}`);
    const [p, r] = [personal.slice(0, 4), REDACTED];
    // Two in a row: the first run ends in the second's prefix, before its `_`.
    expect(redactSecrets(`${personal}${personal}`)).toBe(`${p}${r}_${r}`);
    // A look-alike whose run swallows the next token's `dlp`: the token's body is redacted all the same.
    expect(redactSecrets(`dlp_${'a'.repeat(43)}${personal}`)).toBe(`dlp_${r}_${r}`);
  });

  it('keeps text without a whole token as it is: hints, prefixes, short look-alikes', () => {
    for (const text of ['', 'No Data found', 'dlp_0123456789…', `dlp_${'a'.repeat(45)}`, 'DLP_' + 'a'.repeat(46)]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it('leaves no token in random text with tokens embedded, and changes nothing else (1000 cases)', () => {
    const scanner = new RegExp(TOKEN_PATTERN_SOURCE.replaceAll('\\b', ''));
    for (let run = 0; run < 1000; run += 1) {
      const pieces: string[] = [];
      const secrets: string[] = [];
      for (let part = randomInt(1, 6); part > 0; part -= 1) {
        pieces.push(pick(NOISE, randomInt(0, 30)));
        if (randomInt(3) > 0) {
          const one = secret();
          secrets.push(one);
          pieces.push(one);
        }
      }
      const text = pieces.join('');
      const redacted = redactSecrets(text);
      expect(scanner.test(redacted), text).toBe(false);
      for (const one of secrets) expect(redacted).not.toContain(one.slice(4, 44));
      // Idempotent: a redacted text is left alone.
      expect(redactSecrets(redacted)).toBe(redacted);
      // Without tokens, nothing changes.
      if (secrets.length === 0 && !scanner.test(text)) expect(redacted).toBe(text);
    }
  });

  it('takes linear time on a long text of near-misses', () => {
    const text = `dlp_${'a'.repeat(45)} `.repeat(20_000);
    const started = performance.now();
    expect(redactSecrets(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('redactDeep', () => {
  it('redacts every string of an object, keys included, and returns untouched values as they are', () => {
    const one = secret();
    const clean = { a: 1, b: ['x', { c: 'y' }], d: null };
    expect(redactDeep(clean)).toBe(clean);
    const redacted = redactDeep({ url: `/data/v1/${one}`, list: [one, 2], nested: { [one]: true } });
    expect(JSON.stringify(redacted)).not.toContain(one);
    expect(redacted.url).toBe(`/data/v1/${one.slice(0, 4)}${REDACTED}`);
  });
});

describe('echoedId', () => {
  it('redacts before it caps, so a cut never keeps most of a secret', () => {
    const one = secret();
    expect(echoedId(`${'x'.repeat(40)}${one}`)).toBe(`${'x'.repeat(40)}${one.slice(0, 4)}${REDACTED}`);
    const long = 'y'.repeat(200);
    expect(echoedId(long)).toHaveLength(ECHOED_ID_MAX_LENGTH);
    expect(echoedId(long).endsWith('…')).toBe(true);
    expect(echoedId(42)).toBe('42');
  });
});
