import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, importJWK, type JWTPayload } from 'jose';
import { loadOrCreateSecrets } from '../lib/dev-secrets.ts';

// Forges access tokens with the server's own key (or a stranger's), to test what the API accepts.

export async function signWithServerKey(dataDir: string, claims: JWTPayload, header: { alg?: string } = {}) {
  const { oidcJwk } = loadOrCreateSecrets(dataDir);
  const key = await importJWK(oidcJwk as Parameters<typeof importJWK>[0], 'RS256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: header.alg ?? 'RS256', kid: String(oidcJwk['kid']) })
    .sign(key);
}

export async function signWithStrangerKey(dataDir: string, claims: JWTPayload) {
  const { oidcJwk } = loadOrCreateSecrets(dataDir);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: String(oidcJwk['kid']) }).sign(privateKey);
}

/** An unsigned token ('alg: none'), as an attacker would send it. */
export function unsignedToken(claims: JWTPayload) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}
