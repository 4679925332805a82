import { problem, validationProblem } from '@datalab/contract/errors';

// The HTTP side of the command line: one request function with the bearer token, and every failure worded for
// the person reading a terminal or a CI log. The token is sent and never printed.

export class CommandError extends Error {
  override readonly name = 'CommandError';
}

const TIMEOUT_MS = 5 * 60_000;

export interface Connection {
  server: string;
  token: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}

/** What a non-2xx answer means, from the reply shape every /api error has (product §16). */
export function failureMessage(status: number, body: string): string {
  const json = parseJson(body);
  const reply = problem.safeParse(json);
  const title = reply.success ? reply.data.title : body.trim().slice(0, 300) || 'no message';
  const detail = reply.success && reply.data.detail ? `: ${reply.data.detail}` : '';
  const request = reply.success && reply.data.requestId ? ` (request ${reply.data.requestId})` : '';
  const said = `${title}${detail}${request}`;
  if (status === 400) {
    const validation = validationProblem.safeParse(json);
    const lines = validation.success
      ? Object.entries(validation.data.errors).map(([path, messages]) => `  ${path}: ${messages.join('; ')}`)
      : [];
    return [`The server refused the request (400): ${said}`, ...lines].join('\n');
  }
  if (status === 401) return `The server did not accept the token in DATALAB_TOKEN (401): ${said}`;
  if (status === 403)
    return `Not allowed (403): ${said}. Plan, apply and export need the Owner role on the collection.`;
  if (status === 404) return `Not found (404): ${said}`;
  if (status === 413) return `The document is too large (413): ${said}`;
  return `The server answered ${status}: ${said}`;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  accept: string;
  body?: unknown;
}

/** Sends one /api request; answers the body text of a 2xx, throws a CommandError otherwise. */
export async function send(connection: Connection, path: string, options: RequestOptions): Promise<string> {
  const url = `${connection.server}${path}`;
  const headers: Record<string, string> = { accept: options.accept, authorization: `Bearer ${connection.token}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      // A redirect is reported, not followed: the address to use is the one it names.
      redirect: 'manual',
    });
  } catch (error) {
    throw new CommandError(`Cannot reach the server at ${connection.server} (${causeOf(error)})`);
  }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location') ?? 'another address';
    throw new CommandError(`The server redirects ${url} to ${location}: give that address with --server`);
  }
  const text = await response.text();
  if (!response.ok) throw new CommandError(failureMessage(response.status, text));
  return text;
}
