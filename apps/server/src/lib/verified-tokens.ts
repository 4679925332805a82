import { LRUCache } from 'lru-cache';

// Access tokens whose signature and claims were verified, with the user each one names, until the
// token's own expiry (docs/decisions.md #17), at most `maxEntries` of them, least recently used first out (lru-cache).
// Looked up on every authenticated request, so the
// lookup is kept cheap: a Map keyed by a whole token (about 1 kB) hashes every character of each new
// header string, ~1.5 µs a request. The key is the token's tail instead (signature characters) and
// the entry holds the whole token, compared in full, so a different token with the same tail is a
// miss (and is verified), never a hit.

const KEY_CHARS = 32;

interface Entry {
  token: string;
  userId: number;
  expiresAt: number;
}

export class VerifiedTokens {
  readonly #entries: LRUCache<string, Entry>;

  constructor(maxEntries: number) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  /** The user id behind a verified, unexpired token. */
  get(token: string, now = Date.now()): number | undefined {
    const key = token.slice(-KEY_CHARS);
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.token !== token) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.userId;
  }

  set(token: string, userId: number, expiresAt: number): void {
    this.#entries.set(token.slice(-KEY_CHARS), { token, userId, expiresAt });
  }

  /**
   * The user behind an `Authorization: Bearer <token>` header whose token is already verified: one
   * lookup per request. The token passed the header's syntax check when it was first verified, so the
   * check is skipped.
   */
  userOfBearer(header: string | undefined): number | undefined {
    if (header === undefined || !header.startsWith('Bearer ')) return undefined;
    return this.get(header.slice(7));
  }
}
