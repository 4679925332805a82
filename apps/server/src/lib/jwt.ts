import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';

// Verifies the portal's OIDC access tokens: signature against the issuer's JWKS, issuer, audience,
// expiry, and an allowlist of asymmetric algorithms (so 'none' and HMAC confusion are refused).

export const ACCEPTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** Public keys of a built-in provider; otherwise the issuer's discovery document names its JWKS. */
  localJwks?: { keys: Record<string, unknown>[] };
  fetchImpl?: typeof fetch;
}

const discovery = z.object({ issuer: z.string(), jwks_uri: z.string().url() });

export type TokenVerifier = (token: string) => Promise<JWTPayload | undefined>;

export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const getKeys = () => {
    keys ??= (async () => {
      if (options.localJwks) return createLocalJWKSet(options.localJwks as Parameters<typeof createLocalJWKSet>[0]);
      const response = await (options.fetchImpl ?? fetch)(`${options.issuer}/.well-known/openid-configuration`);
      if (!response.ok) throw new Error(`OIDC discovery failed with status ${response.status}`);
      const document = discovery.parse(await response.json());
      return createRemoteJWKSet(new URL(document.jwks_uri));
    })().catch((error: unknown) => {
      keys = undefined; // try discovery again on the next request
      throw error;
    });
    return keys;
  };

  return async (token) => {
    const keySet = await getKeys();
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
        clockTolerance: 5,
      });
      return payload;
    } catch (error) {
      if (error instanceof errors.JOSEError) return undefined;
      throw error;
    }
  };
}
