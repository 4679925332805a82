import { z } from 'zod';

// What the single-page app needs to know before it can sign anyone in. Served unauthenticated
// at PORTAL_CONFIG_PATH, so that one build works against any identity provider.

export const PORTAL_CONFIG_PATH = '/portal-config.json';

export const portalConfig = z.object({
  productName: z.string(),
  authority: z.string().url(),
  clientId: z.string(),
  scopes: z.array(z.string()),
  apiBaseUrl: z.string(),
  callingLayerUrl: z.string(),
  /** Data Lab tokens' expiry in days (TOKEN_DEFAULT_DAYS, TOKEN_MAX_DAYS) and whether "never" is allowed. */
  tokenExpiry: z.object({
    defaultDays: z.number().int(),
    maxDays: z.number().int(),
    allowNoExpiry: z.boolean(),
  }),
  /** Demo accounts offered by the built-in provider (embedded mode only), for the home page. */
  demoAccounts: z.array(z.object({ username: z.string(), description: z.string() })),
});
export type PortalConfig = z.infer<typeof portalConfig>;
