// The server writes a per-request nonce into <meta name="csp-nonce"> (its CSP allows
// style-src 'self' 'nonce-…'); every <style> the app injects must carry it.

const PLACEHOLDER = '__CSP_NONCE__';

export function readCspNonce(doc: Document = document): string | undefined {
  const content = doc.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
  // Under `vite` (dev) the placeholder is not replaced and no CSP applies.
  if (content === '' || content === PLACEHOLDER) return undefined;
  return content;
}
