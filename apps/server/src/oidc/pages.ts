import { PRODUCT_NAME } from '@datalab/contract/texts';

// The built-in provider's pages: plain HTML forms (product §13) so a script can sign in without a
// browser. No inline script or style: they load /oidc-assets/* under the strict CSP.

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string, script?: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${PRODUCT_NAME}</title>
<link rel="stylesheet" href="/oidc-assets/pages.css">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${script ? `<script src="/oidc-assets/${script}" defer></script>` : ''}
</head>
<body>
<main class="card">
<p class="brand">${PRODUCT_NAME}</p>
${body}
</main>
</body>
</html>`;
}

export function loginPage(options: {
  action: string;
  username?: string;
  error?: string;
  clientName: string;
  demoAccounts: { username: string; description: string }[];
}) {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const demo =
    options.demoAccounts.length > 0
      ? `<section class="demo"><h2>Demo accounts</h2><p>Password for each: <code>datalab</code></p><ul>${options.demoAccounts
          .map((a) => `<li><code>${escapeHtml(a.username)}</code> — ${escapeHtml(a.description)}</li>`)
          .join('')}</ul></section>`
      : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
<p class="muted">to continue to ${escapeHtml(options.clientName)}</p>
${error}
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" required autofocus value="${escapeHtml(options.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
${demo}`,
  );
}

/** Whether the person lets a client that registered itself (an MCP client) act for them. */
export function consentPage(options: { action: string; clientName: string; redirectUri: string }) {
  const redirect = options.redirectUri
    ? `<p class="muted">It will be sent back to <code>${escapeHtml(options.redirectUri)}</code>.</p>`
    : '';
  return page(
    'Allow access',
    `<h1>Allow ${escapeHtml(options.clientName)}?</h1>
<p><strong>${escapeHtml(options.clientName)}</strong> asks to call, as you, the data assets you may call in ${PRODUCT_NAME} that are available to AI agents. It cannot change anything.</p>
${redirect}
<form method="post" action="${escapeHtml(options.action)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  );
}

/**
 * RP-initiated logout. When the portal sent its ID token as a hint, the user already chose Logout
 * there, and a small script confirms at once; otherwise the user confirms here.
 */
export function logoutPage(form: string, autoConfirm: boolean) {
  return page(
    'Sign out',
    `<h1>Signing you out</h1>
<p class="muted">You are being signed out of ${PRODUCT_NAME}.</p>
${form}
<button type="submit" form="op.logoutForm" value="yes" name="logout" id="logout-confirm">Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>`,
    autoConfirm ? 'logout.js' : undefined,
  );
}

export function errorPage(title: string, detail: string) {
  return page(
    'Sign-in failed',
    `<h1>Sign-in failed</h1><p class="error">${escapeHtml(title)}</p><p class="muted">${escapeHtml(detail)}</p><p><a href="/">Return to ${PRODUCT_NAME}</a></p>`,
  );
}
