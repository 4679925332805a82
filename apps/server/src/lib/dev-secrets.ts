import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

// Outside production the server makes its own keys on first start and keeps them in DATA_DIR, so
// sessions and encrypted values survive a restart. Production must bring its own (config.ts).

const secretsSchema = z.object({
  signingKey: z.string(),
  encryptionKey: z.string(),
  oidcJwk: z.record(z.string(), z.unknown()),
});
export type DevSecrets = z.infer<typeof secretsSchema>;

export function createSecrets(): DevSecrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return {
    signingKey: randomBytes(32).toString('base64'),
    encryptionKey: randomBytes(32).toString('base64'),
    oidcJwk: { ...jwk, kid: randomUUID(), use: 'sig', alg: 'RS256' },
  };
}

export function loadOrCreateSecrets(dataDir: string): DevSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return secretsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  mkdirSync(dataDir, { recursive: true });
  const secrets = createSecrets();
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
