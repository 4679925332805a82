import { createPublicKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SignJWT, importJWK, type JWTPayload } from 'jose';
import { loadOrCreateSecrets } from '../../src/lib/dev-secrets.ts';

// Forges access tokens with the server's own key (or a stranger's), and Data Lab token texts, to test what the API
// accepts.

/** An access token (RFC 9068 'at+jwt') unless the header says another type. */
export async function signWithServerKey(
  dataDir: string,
  claims: JWTPayload,
  header: { alg?: string; typ?: string } = {},
) {
  const { oidcJwk } = loadOrCreateSecrets(dataDir);
  const key = await importJWK(oidcJwk as Parameters<typeof importJWK>[0], 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: header.alg ?? 'RS256', typ: header.typ ?? 'at+jwt', kid: String(oidcJwk['kid']) })
    .sign(key);
}

/** HMAC confusion: an HS256 token whose secret is the server's public key, as an attacker would try. */
export async function signWithPublicKeyAsSecret(dataDir: string, claims: JWTPayload) {
  const { oidcJwk } = loadOrCreateSecrets(dataDir);
  const publicKey = createPublicKey({ key: oidcJwk as JsonWebKey, format: 'jwk' });
  const secret = Buffer.from(publicKey.export({ type: 'spki', format: 'pem' }));
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: String(oidcJwk['kid']) })
    .sign(secret);
}

export async function signWithStrangerKey(dataDir: string, claims: JWTPayload) {
  const { oidcJwk } = loadOrCreateSecrets(dataDir);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: String(oidcJwk['kid']) })
    .sign(privateKey);
}

/** An unsigned token ('alg: none'), as an attacker would send it. */
export function unsignedToken(claims: JWTPayload) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A Data Lab token's text: `prefixAndBody` and the checksum the documented format gives it (docs/tokens.md): CRC-32
 * of prefix and body, as 6 base62 characters.
 */
export const withChecksum = (prefixAndBody: string) => {
  let value = crc32(prefixAndBody);
  let checksum = '';
  for (let i = 0; i < 6; i += 1) {
    checksum = BASE62[value % 62] + checksum;
    value = Math.floor(value / 62);
  }
  return prefixAndBody + checksum;
};
