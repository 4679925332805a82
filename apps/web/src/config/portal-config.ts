import { PORTAL_CONFIG_PATH, portalConfig, type PortalConfig } from '@datalab/contract/api/portal-config';
import { SIGN_IN_SCOPES } from '@datalab/contract/limits';

// Loaded once, before anything can sign in: one build of the SPA works against any identity
// provider the server is configured with (code-style habit 11: config validated at start).

export class PortalConfigError extends Error {
  override readonly name = 'PortalConfigError';
}

export async function loadPortalConfig(fetchImpl: typeof fetch = fetch): Promise<PortalConfig> {
  let response: Response;
  try {
    response = await fetchImpl(PORTAL_CONFIG_PATH, { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new PortalConfigError('The portal configuration could not be loaded', { cause: error });
  }
  if (!response.ok) {
    throw new PortalConfigError(`The portal configuration answered ${response.status}`);
  }
  const parsed = portalConfig.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new PortalConfigError('The portal configuration is not valid', { cause: parsed.error });
  }
  return parsed.data;
}

/** The scopes to ask for: those the server configured, or product §9's list. */
export function signInScopes(config: PortalConfig): string {
  return (config.scopes.length > 0 ? config.scopes : SIGN_IN_SCOPES).join(' ');
}

/** Embedded mode is the zero-configuration default whose built-in provider has demo accounts. */
export function isEmbeddedMode(config: PortalConfig): boolean {
  return config.demoAccounts.length > 0;
}
