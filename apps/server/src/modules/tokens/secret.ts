import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { TOKEN_BODY_LENGTH, TOKEN_CHECKSUM_LENGTH, tokenPrefixes, type TokenKind } from '@datalab/contract/api/tokens';

// Data Lab token secrets (docs/decisions.md, "Data Lab tokens"): `dlp_` (personal) or `dlc_` (collection), 40
// random base62 characters — the first 12 are the lookup id the store indexes, the other 28 (166 bits) are known to
// nobody but the holder — and a 6-character base62 CRC-32 of everything before it, so a scanner can match the
// format and a mistyped token is refused without a lookup. Only a SHA-256 of the whole secret is stored.

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const LOOKUP_ID_LENGTH = 12;
const TOKEN_LENGTH = 4 + TOKEN_BODY_LENGTH + TOKEN_CHECKSUM_LENGTH;
const BASE62 = /^[0-9A-Za-z]+$/;

/** `length` characters drawn uniformly from the base62 alphabet (rejection sampling: no modulo bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it would favour the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A 32-bit number as 6 base62 characters (62^6 > 2^32), left-padded with '0'. */
function base62Checksum(text: string): string {
  let value = crc32(text);
  let out = '';
  for (let i = 0; i < TOKEN_CHECKSUM_LENGTH; i += 1) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export interface NewSecret {
  secret: string;
  lookupId: string;
  hash: string;
  /** Prefix and the first characters: shown in lists so people recognise a token. */
  hint: string;
}

export function generateSecret(kind: TokenKind): NewSecret {
  const prefix = tokenPrefixes[kind];
  const body = randomBase62(TOKEN_BODY_LENGTH);
  const secret = `${prefix}${body}${base62Checksum(prefix + body)}`;
  return { secret, lookupId: body.slice(0, LOOKUP_ID_LENGTH), hash: hashSecret(secret), hint: hintOf(kind, body) };
}

export const hintOf = (kind: TokenKind, lookupId: string) => `${tokenPrefixes[kind]}${lookupId.slice(0, 6)}…`;

export interface ParsedSecret {
  kind: TokenKind;
  lookupId: string;
}

/** The kind and lookup id of a well-formed secret whose checksum holds; undefined for anything else. */
export function parseSecret(secret: string): ParsedSecret | undefined {
  if (secret.length !== TOKEN_LENGTH) return undefined;
  const prefix = secret.slice(0, 4);
  const kind: TokenKind | undefined =
    prefix === tokenPrefixes.personal ? 'personal' : prefix === tokenPrefixes.collection ? 'collection' : undefined;
  if (!kind) return undefined;
  const rest = secret.slice(4);
  if (!BASE62.test(rest)) return undefined;
  const body = rest.slice(0, TOKEN_BODY_LENGTH);
  if (base62Checksum(prefix + body) !== rest.slice(TOKEN_BODY_LENGTH)) return undefined;
  return { kind, lookupId: body.slice(0, LOOKUP_ID_LENGTH) };
}

/** Whether a bearer credential claims to be a Data Lab token (a JWT never starts so). */
export const looksLikeDataLabToken = (credential: string) =>
  credential.startsWith(tokenPrefixes.personal) || credential.startsWith(tokenPrefixes.collection);

/** Anything in a text that has the format of a Data Lab token (the checksum is not checked). */
export const TOKEN_IN_TEXT = /dl[pc]_[0-9A-Za-z]{46}/;

const DUMMY_HASH = Buffer.from(hashSecret('dlp_not-a-token'), 'hex');

/**
 * Whether the secret hashes to `storedHash`, in constant time. Without a stored hash (malformed, unknown) the same
 * hash and comparison run against a dummy, so every refusal costs the same work.
 */
export function secretMatches(secret: string, storedHash: string | undefined): boolean {
  const computed = Buffer.from(hashSecret(secret.slice(0, TOKEN_LENGTH)), 'hex');
  const stored = storedHash === undefined ? undefined : Buffer.from(storedHash, 'hex');
  if (!stored || stored.length !== computed.length) {
    timingSafeEqual(computed, DUMMY_HASH);
    return false;
  }
  return timingSafeEqual(computed, stored);
}
