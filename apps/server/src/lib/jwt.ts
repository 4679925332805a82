import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';

// Verifies the portal's OIDC access tokens: signature against the issuer's JWKS, issuer, audience,
// expiry, and an allowlist of asymmetric algorithms (so 'none' and HMAC confusion are refused).
// Only access tokens pass: an ID token is addressed to the portal (its client id), not to the API,
// and where the provider types its access tokens (RFC 9068 'at+jwt') the type is required too.

export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface VerifierOptions {
  issuer: string;
  audience: string;
  /** The portal's own client id: a token addressed to it is an ID token, never an access token. */
  clientId: string;
  /** Require the RFC 9068 'typ' header; on for the built-in provider, which sets it. */
  requireAccessTokenType: boolean;
  /** Public keys of a built-in provider; otherwise the issuer's discovery document names its JWKS. */
  localJwks?: { keys: Record<string, unknown>[] };
  fetchImpl?: typeof fetch;
}

/** The identity provider could not be asked (discovery or keys unreachable): not the caller's fault. */
export class IdentityProviderUnavailable extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'IdentityProviderUnavailable';
  }
}

/** The discovery document names another issuer than OIDC_ISSUER: a misconfiguration, or a forged document. */
export class IssuerMismatch extends Error {
  constructor(configured: string, announced: string) {
    super(
      `the discovery document of OIDC_ISSUER names issuer "${announced}", not "${configured}". ` +
        'Set OIDC_ISSUER to the exact issuer of your provider (as its tokens carry it in "iss").',
    );
    this.name = 'IssuerMismatch';
  }
}

const discovery = z.object({ issuer: z.string(), jwks_uri: z.string().url() });

const DISCOVERY_TIMEOUT_MS = 5_000;

/** Reads the issuer's discovery document and checks that it speaks for the configured issuer. */
export async function discoverJwksUri(issuer: string, fetchImpl: typeof fetch = fetch): Promise<URL> {
  let body: unknown;
  try {
    const response = await fetchImpl(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new IdentityProviderUnavailable(`OIDC discovery at ${issuer} failed: ${(error as Error).message}`, error);
  }
  const document = discovery.safeParse(body);
  if (!document.success)
    throw new IdentityProviderUnavailable(`OIDC discovery at ${issuer} answered no issuer or jwks_uri`);
  if (document.data.issuer.replace(/\/$/, '') !== issuer.replace(/\/$/, '')) {
    throw new IssuerMismatch(issuer, document.data.issuer);
  }
  return new URL(document.data.jwks_uri);
}

export interface TokenVerifier {
  (token: string): Promise<JWTPayload | undefined>;
  /** Fetches the keys now (at start), instead of at the first request. */
  prepare: () => Promise<void>;
}

const audiences = (aud: JWTPayload['aud']) => (Array.isArray(aud) ? aud : aud === undefined ? [] : [aud]);

/** Claims that mark an ID token even where the provider does not type its tokens (Keycloak: typ 'ID'). */
function looksLikeIdToken(payload: JWTPayload, clientId: string): boolean {
  return audiences(payload.aud).includes(clientId) || payload['typ'] === 'ID';
}

export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const getKeys = () => {
    keys ??= (async () => {
      if (options.localJwks) return createLocalJWKSet(options.localJwks as Parameters<typeof createLocalJWKSet>[0]);
      return createRemoteJWKSet(await discoverJwksUri(options.issuer, options.fetchImpl));
    })().catch((error: unknown) => {
      keys = undefined; // try discovery again on the next request
      throw error;
    });
    return keys;
  };

  const verify = async (token: string) => {
    const keySet = await getKeys();
    try {
      const { payload } = await jwtVerify(token, keySet, {
        // Auth0 writes its issuer with a trailing slash; OIDC_ISSUER is kept without one.
        issuer: [options.issuer, `${options.issuer}/`],
        audience: options.audience,
        algorithms: ACCEPTED_ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
        clockTolerance: 5,
        ...(options.requireAccessTokenType ? { typ: ACCESS_TOKEN_TYPE } : {}),
      });
      return looksLikeIdToken(payload, options.clientId) ? undefined : payload;
    } catch (error) {
      if (error instanceof errors.JWKSTimeout)
        throw new IdentityProviderUnavailable('the identity provider keys timed out', error);
      if (error instanceof errors.JOSEError) return undefined;
      throw new IdentityProviderUnavailable('the identity provider keys could not be fetched', error);
    }
  };
  return Object.assign(verify, {
    prepare: async () => {
      await getKeys();
    },
  });
}
