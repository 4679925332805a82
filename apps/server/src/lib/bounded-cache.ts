// A Map bounded in entries; entries carry their own expiry. Past its bound it evicts an entry not used since the
// sweep last passed it (CLOCK, the second-chance approximation of least recently used): a hit only marks its entry,
// so the lookups on every request (verified tokens, asset definitions) leave the Map's order alone, and the
// reordering is paid by the inserts that need room.

interface Slot<V> {
  value: V;
  expiresAt: number;
  /** Looked up since the sweep last passed it. */
  used: boolean;
}

export class BoundedCache<K, V> {
  readonly #entries = new Map<K, Slot<V>>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = maxEntries;
  }

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  set(key: K, value: V, expiresAt: number): void {
    if (!this.#entries.delete(key) && this.#entries.size >= this.#maxEntries) this.#evictOne();
    this.#entries.set(key, { value, expiresAt, used: false });
  }

  /** Oldest first: a used entry goes to the end unmarked (its second chance), the first unused one goes. */
  #evictOne(): void {
    for (const [key, entry] of this.#entries) {
      this.#entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.#entries.set(key, entry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
