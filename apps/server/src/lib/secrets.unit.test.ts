import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox, keyId } from './secrets.ts';

describe('SecretBox', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and the sealed text holds no trace of the plaintext', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('p@ssw0rd – ünïcode');
    expect(sealed).not.toContain('p@ssw0rd');
    expect(sealed.split('.')).toHaveLength(5);
    expect(sealed.split('.')[1]).toBe(keyId(key));
    expect(box.open(sealed)).toBe('p@ssw0rd – ünïcode');
  });

  it('seals the same value differently each time (a fresh IV)', () => {
    const box = new SecretBox(key);
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered ciphertext, tag or key id', () => {
    const box = new SecretBox(key);
    const [v, id, iv, ct, tag] = box.seal('secret').split('.') as [string, string, string, string, string];
    const flip = (text: string) =>
      Buffer.from(Buffer.from(text, 'base64url').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64url');
    expect(() => box.open([v, id, iv, flip(ct), tag].join('.'))).toThrow();
    expect(() => box.open([v, id, iv, ct, flip(tag)].join('.'))).toThrow();
    expect(() => box.open([v, 'deadbeef', iv, ct, tag].join('.'))).toThrow(/not configured/);
    expect(() => box.open('plain text')).toThrow(/Not a sealed secret/);
  });

  it('opens values of a previous key after a rotation and reports them stale', () => {
    const before = new SecretBox(key);
    const sealed = before.seal('rotated');
    const after = new SecretBox(randomBytes(32), [key]);
    expect(after.open(sealed)).toBe('rotated');
    expect(after.isStale(sealed)).toBe(true);
    expect(after.isStale(after.seal('x'))).toBe(false);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow(/not configured/);
  });

  it('refuses keys of the wrong length', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
