import { describe, expect, it } from 'vitest';
import { metricsAccess } from './metrics.ts';

// Who may read /metrics (the integration test covers the bearer rule through inject; production apps need keys and
// an external provider, so the production rule is checked here on the function the route calls).

describe('metrics access', () => {
  const secret = 'metrics-secret-0123456789';
  it('is open in the embedded default and not served in production without METRICS_TOKEN', () => {
    expect(metricsAccess({ metricsToken: undefined, isProduction: false }, undefined)).toBe('allow');
    expect(metricsAccess({ metricsToken: undefined, isProduction: true }, `Bearer ${secret}`)).toBe('hidden');
  });
  it('needs the bearer of METRICS_TOKEN when set, in production too', () => {
    for (const isProduction of [false, true]) {
      const config = { metricsToken: secret, isProduction };
      expect(metricsAccess(config, `Bearer ${secret}`)).toBe('allow');
      expect(metricsAccess(config, undefined)).toBe('unauthenticated');
      expect(metricsAccess(config, secret)).toBe('unauthenticated');
      expect(metricsAccess(config, `Bearer ${secret}x`)).toBe('unauthenticated');
    }
  });
});
