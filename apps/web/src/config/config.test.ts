import { describe, expect, it, vi } from 'vitest';
import { buildPortalConfig } from '../test/builders.ts';
import { readCspNonce } from './csp-nonce.ts';
import { loadPortalConfig, PortalConfigError } from './portal-config.ts';

describe('loadPortalConfig', () => {
  it('fetches /portal-config.json and parses it with the contract schema', async () => {
    const config = buildPortalConfig({ demoAccounts: [{ username: 'admin', description: 'Administrator' }] });
    const fetchImpl = vi.fn<typeof fetch>(async () => Response.json(config));
    await expect(loadPortalConfig(fetchImpl)).resolves.toEqual(config);
    expect(fetchImpl.mock.calls[0]?.[0]).toBe('/portal-config.json');
  });

  it('refuses a configuration that does not match the schema', async () => {
    const fetchImpl = vi.fn<typeof fetch>(async () =>
      Response.json({ ...buildPortalConfig(), authority: 'not a url' }),
    );
    await expect(loadPortalConfig(fetchImpl)).rejects.toBeInstanceOf(PortalConfigError);
  });

  it('reports an unreachable or failing server', async () => {
    await expect(loadPortalConfig(async () => new Response('', { status: 503 }))).rejects.toThrow('answered 503');
    await expect(loadPortalConfig(async () => Promise.reject(new TypeError('offline')))).rejects.toBeInstanceOf(
      PortalConfigError,
    );
  });
});

describe('readCspNonce', () => {
  function documentWith(content: string | null): Document {
    const doc = document.implementation.createHTMLDocument('test');
    if (content !== null) {
      const meta = doc.createElement('meta');
      meta.setAttribute('name', 'csp-nonce');
      meta.setAttribute('content', content);
      doc.head.append(meta);
    }
    return doc;
  }

  it('reads the nonce the server wrote into the page', () => {
    expect(readCspNonce(documentWith('r4nd0m'))).toBe('r4nd0m');
  });

  it('ignores the unreplaced placeholder and a missing tag', () => {
    expect(readCspNonce(documentWith('__CSP_NONCE__'))).toBeUndefined();
    expect(readCspNonce(documentWith(null))).toBeUndefined();
  });
});
