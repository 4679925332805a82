import { describe, expect, it } from 'vitest';
import { TOKEN_PATTERN_SOURCE } from '@datalab/contract/api/tokens';
import { ConfigError, loadConfig } from '../../config.ts';
import { expiryOf } from './service.ts';
import { generateSecret, hashSecret, parseSecret, secretMatches } from './secret.ts';

// The secret's format: prefix, 40 random base62 characters, a checksum that catches typos; the stored hash.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('Data Lab token secrets', () => {
  it('have a prefix per kind, a scannable format and a lookup id', () => {
    const personal = generateSecret('personal');
    const collection = generateSecret('collection');
    expect(personal.secret).toMatch(/^dlp_[0-9A-Za-z]{46}$/);
    expect(collection.secret).toMatch(/^dlc_[0-9A-Za-z]{46}$/);
    expect(`see ${personal.secret}.`).toMatch(new RegExp(TOKEN_PATTERN_SOURCE));
    expect(parseSecret(personal.secret)).toEqual({ kind: 'personal', lookupId: personal.secret.slice(4, 16) });
    expect(parseSecret(collection.secret)).toEqual({ kind: 'collection', lookupId: collection.secret.slice(4, 16) });
    expect(personal.hash).toBe(hashSecret(personal.secret));
    expect(personal.hint).toBe(`${personal.secret.slice(0, 10)}…`);
  });

  it('are never the same twice, and use the whole alphabet', () => {
    const bodies = Array.from({ length: 2000 }, () => generateSecret('personal').secret.slice(4, 44));
    expect(new Set(bodies).size).toBe(bodies.length);
    const seen = new Set(bodies.join(''));
    expect(seen.size).toBe(62);
  });

  it('refuse every single-character typo by their checksum, without a lookup', () => {
    const { secret } = generateSecret('personal');
    for (let position = 4; position < secret.length; position += 1) {
      for (const replacement of ['0', 'Z', 'z', 'q']) {
        if (secret[position] === replacement) continue;
        const typo = `${secret.slice(0, position)}${replacement}${secret.slice(position + 1)}`;
        expect(parseSecret(typo), typo).toBeUndefined();
      }
    }
    // Two neighbours swapped.
    const swapped = `${secret.slice(0, 8)}${secret[9]}${secret[8]}${secret.slice(10)}`;
    if (secret[8] !== secret[9]) expect(parseSecret(swapped)).toBeUndefined();
    expect(parseSecret(secret.replace('dlp_', 'dlc_'))).toBeUndefined();
    expect(parseSecret(`${secret}x`)).toBeUndefined();
    expect(parseSecret(secret.slice(0, -1))).toBeUndefined();
    expect(parseSecret(`dlp_${'-'.repeat(46)}`)).toBeUndefined();
    expect(ALPHABET).toHaveLength(62);
  });

  it('match their stored hash only', () => {
    const one = generateSecret('personal');
    const other = generateSecret('personal');
    expect(secretMatches(one.secret, one.hash)).toBe(true);
    expect(secretMatches(other.secret, one.hash)).toBe(false);
    expect(secretMatches(one.secret, undefined)).toBe(false);
    expect(secretMatches('x'.repeat(10_000), one.hash)).toBe(false);
  });
});

describe('token expiry', () => {
  const settings = { defaultDays: 30, maxDays: 365, allowNoExpiry: false };
  const now = Date.parse('2026-11-23T15:30:00.000Z');

  it('defaults to TOKEN_DEFAULT_DAYS and stops at 00:00 UTC of the day asked for', () => {
    expect(expiryOf(undefined, settings, now)).toBe('2026-12-23T00:00:00.000Z');
    expect(expiryOf('2026-11-24', settings, now)).toBe('2026-11-24T00:00:00.000Z');
    expect(expiryOf('2027-11-23', settings, now)).toBe('2027-11-23T00:00:00.000Z');
  });

  it('refuses today, the past, beyond TOKEN_MAX_DAYS, impossible dates and never (unless allowed)', () => {
    for (const [value, message] of [
      ['2026-11-23', 'Expiry must be a date after today'],
      ['2020-01-01', 'Expiry must be a date after today'],
      ['2027-11-24', 'Expiry must be at most 365 days from today'],
      ['2026-02-30', 'Expiry must be a date (YYYY-MM-DD)'],
      [null, 'Expiry is required'],
    ] as const) {
      expect(() => expiryOf(value, settings, now), String(value)).toThrow(
        expect.objectContaining({ errors: { expiresOn: [message] } }),
      );
    }
    expect(expiryOf(null, { ...settings, allowNoExpiry: true }, now)).toBeNull();
  });
});

describe('token and rate-limit settings', () => {
  it('default to 30 days, at most 365, no "never", 600 calls a minute', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.tokens).toEqual({ defaultDays: 30, maxDays: 365, allowNoExpiry: false });
    expect(config.rateLimitPerMinute).toBe(600);
    const custom = loadConfig({
      NODE_ENV: 'test',
      TOKEN_DEFAULT_DAYS: '7',
      TOKEN_MAX_DAYS: '90',
      TOKEN_ALLOW_NO_EXPIRY: 'true',
      RATE_LIMIT_PER_MINUTE: '60',
    });
    expect(custom.tokens).toEqual({ defaultDays: 7, maxDays: 90, allowNoExpiry: true });
    expect(custom.rateLimitPerMinute).toBe(60);
  });

  it('refuse a default beyond the maximum, and limits that are not positive', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', TOKEN_DEFAULT_DAYS: '400' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', RATE_LIMIT_PER_MINUTE: '0' })).toThrow(/RATE_LIMIT_PER_MINUTE/);
  });
});
