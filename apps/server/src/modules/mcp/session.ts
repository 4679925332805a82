// The MCP endpoint keeps no session: the session id it hands out on initialize carries only the client's own
// clientInfo ("name/version"), so later requests, which do not repeat it, can name the client in their call log
// records. It grants nothing (every request authenticates afresh) and is not trusted beyond that label.

const PREFIX = 'c1.';
const MAX_LABEL = 100;

/** The session id for a client label: visible ASCII only, as the transport requires. */
export function sessionOfClient(label: string): string {
  return PREFIX + Buffer.from(label.slice(0, MAX_LABEL), 'utf8').toString('base64url');
}

/** The client label a session id carries; undefined for any other value. */
export function clientOfSession(sessionId: string | undefined): string | undefined {
  if (!sessionId?.startsWith(PREFIX) || sessionId.length > 200) return undefined;
  const label = Buffer.from(sessionId.slice(PREFIX.length), 'base64url')
    .toString('utf8')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f\ufffd]/g, '');
  return label.slice(0, MAX_LABEL) || undefined;
}
