import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Secrets at rest (connection passwords, Web API credentials): AES-256-GCM under the configured
// ENCRYPTION_KEY. Each sealed value names the key that sealed it (a short id derived from the key),
// so a key can be rotated: the new key seals, the previous ones still open what they sealed until
// everything is re-sealed. A sealed value is text: `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url).

const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

export class SecretBox {
  readonly #current: { id: string; key: Buffer };
  readonly #keys: Map<string, Buffer>;

  /** `current` seals; `previous` keys only open values sealed before a rotation. */
  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new Error(`An encryption key must be ${KEY_BYTES} bytes`);
    }
    this.#current = { id: keyId(current), key: current };
    this.#keys = new Map([...previous, current].map((key) => [keyId(key), key]));
  }

  get currentKeyId(): string {
    return this.#current.id;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    // The key id is authenticated too, so a value cannot be relabelled to another key.
    cipher.setAAD(Buffer.from(`${VERSION}.${this.#current.id}`));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
    return [VERSION, this.#current.id, ...parts].join('.');
  }

  open(sealed: string): string {
    const [version, id, iv, ciphertext, tag, ...rest] = sealed.split('.');
    if (version !== VERSION || !id || iv === undefined || ciphertext === undefined || !tag || rest.length > 0) {
      throw new Error('Not a sealed secret');
    }
    const key = this.#keys.get(id);
    if (!key) throw new Error(`The secret was sealed with key ${id}, which is not configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`${VERSION}.${id}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a value should be sealed again under the current key (after a rotation). */
  isStale(sealed: string): boolean {
    return sealed.split('.')[1] !== this.#current.id;
  }
}

/** A short, stable, non-secret name for a key: enough to pick the right one, useless to an attacker. */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('datalab-key-id').update(key).digest('hex').slice(0, 8);
}
