import { z } from 'zod';
import { isoDateTime } from '../dates.ts';
import { nameText } from '../text.ts';

// A Web API connection's credentials (product §7, "web API connection, with credentials"): what replies show (kind,
// non-secret settings, the secret masked) and what create and update take. Part of the Web API contract (web-api.ts
// re-exports it).

export const credentialKinds = ['api-key', 'basic', 'bearer', 'oauth2'] as const;
export type CredentialKind = (typeof credentialKinds)[number];

const apiKeySettings = z.object({
  /** Where the key goes. */
  in: z.enum(['header', 'query']).default('header'),
  /** The header or query parameter name, e.g. X-Api-Key. */
  name: z.string().trim().min(1).max(200),
});
const basicSettings = z.object({ username: z.string().max(1000) });
const bearerSettings = z.object({});
const oauth2Settings = z.object({
  tokenUrl: z.url({ protocol: /^https?$/ }).max(2000),
  clientId: z.string().trim().min(1).max(1000),
  scope: z.string().max(2000).optional(),
  audience: z.string().max(2000).optional(),
  /** How the client authenticates at the token URL: HTTP Basic or in the form body. */
  clientAuth: z.enum(['basic', 'body']).default('basic'),
});

const credentialCommon = {
  id: z.number().int(),
  connectionId: z.number().int(),
  name: z.string(),
  /** The masked placeholder when a secret is stored, null when none is (a basic credential without password). */
  secret: z.string().nullable(),
  /** How many data assets send it. */
  assetCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};

/** A credential as replies show it: kind, non-secret settings, the secret masked. */
export const webApiCredential = z.discriminatedUnion('kind', [
  z.object({ ...credentialCommon, kind: z.literal('api-key'), settings: apiKeySettings }),
  z.object({ ...credentialCommon, kind: z.literal('basic'), settings: basicSettings }),
  z.object({ ...credentialCommon, kind: z.literal('bearer'), settings: bearerSettings }),
  z.object({ ...credentialCommon, kind: z.literal('oauth2'), settings: oauth2Settings }),
]);
export type WebApiCredential = z.infer<typeof webApiCredential>;

/**
 * The secret: the API key's value, the basic password, the bearer token or the OAuth2 client secret. Required when a
 * credential is created or changes kind (a basic password may be empty); otherwise absent or the placeholder keeps
 * the stored one.
 */
const secretField = z.string().max(8192).optional();
const credentialName = nameText(100);

const credentialInput = <E extends z.ZodRawShape>(extra: E) =>
  z.discriminatedUnion('kind', [
    z.object({
      ...extra,
      name: credentialName,
      kind: z.literal('api-key'),
      settings: apiKeySettings,
      secret: secretField,
    }),
    z.object({
      ...extra,
      name: credentialName,
      kind: z.literal('basic'),
      settings: basicSettings,
      secret: secretField,
    }),
    z.object({
      ...extra,
      name: credentialName,
      kind: z.literal('bearer'),
      settings: bearerSettings.default({}),
      secret: secretField,
    }),
    z.object({
      ...extra,
      name: credentialName,
      kind: z.literal('oauth2'),
      settings: oauth2Settings,
      secret: secretField,
    }),
  ]);

export const createWebApiCredential = credentialInput({ connectionId: z.number().int() });
export const updateWebApiCredential = credentialInput({ id: z.number().int() });
export type CreateWebApiCredential = z.input<typeof createWebApiCredential>;
export type UpdateWebApiCredential = z.input<typeof updateWebApiCredential>;
