// Production keys must be random bytes. These checks catch what people paste instead: all zeros,
// a repeated byte, a pattern, a word from an example file, a passphrase. They cannot prove
// randomness; they refuse what is certainly not random.

// Words of six letters or more: a random base64 key holds one by chance with odds below 1e-6.
const PLACEHOLDER_WORDS = /change|secret|example|placeholder|password|default|replace|generate/i;

/** Why a 32-byte key is unfit for production, or undefined when it looks random. */
export function weakKeyReason(key: Buffer, encoded: string): string | undefined {
  const distinct = new Set(key).size;
  if (distinct === 1) return 'is one byte repeated (for instance all zeros)';
  // 32 random bytes hold about 30 distinct values; fewer than 16 happens with odds below 1e-9.
  if (distinct < 16) return 'repeats a short pattern';
  // A counter or another sequence (0x00, 0x01, … 0x1f) has 32 distinct bytes but few distinct steps between them:
  // 31 random steps hold about 29 distinct values, fewer than 16 with odds far below 1e-9.
  const steps = new Set(key.subarray(1).map((byte, index) => (byte - key[index]! + 256) % 256));
  if (steps.size < 16) return 'is a sequence (each byte a fixed step from the one before), not random bytes';
  if (PLACEHOLDER_WORDS.test(encoded)) return 'contains a placeholder word';
  // 32 random bytes are all printable ASCII with odds of about 1e-14: this is a passphrase.
  if (key.every((byte) => byte >= 0x20 && byte < 0x7f)) return 'is text, not random bytes';
  // 32 random bytes all within 128 consecutive values: odds about 3e-8.
  if (Math.max(...key) - Math.min(...key) < 128) return 'uses only a narrow range of byte values, not random bytes';
  return undefined;
}
