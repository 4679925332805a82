import type { HttpExchangeView } from '@datalab/contract/api/web-api';

// Plain-text views of one upstream exchange (the server has already masked every secret as asterisks).

/** 'content-type' → 'Content-Type': the engine lower-cases header names. */
export const headerName = (name: string) =>
  name.replace(/(^|-)([a-z])/gu, (_match, dash: string, letter: string) => dash + letter.toUpperCase());

export function headerLines(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(headers ?? {}).map(([name, value]) => `${headerName(name)}: ${value}`);
}

/** A JSON text indented for reading; anything else as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function requestText(exchange: HttpExchangeView): string {
  const lines = [`${exchange.method} ${exchange.url}`, ...headerLines(exchange.requestHeaders)];
  if (exchange.requestBody !== undefined && exchange.requestBody !== '')
    lines.push('', prettyJson(exchange.requestBody));
  return lines.join('\n');
}

export function replyText(exchange: HttpExchangeView): string {
  if (exchange.status === undefined) return 'No reply';
  const lines = [`HTTP ${exchange.status}`, ...headerLines(exchange.replyHeaders)];
  if (exchange.replyPreview) lines.push('', exchange.replyPreview);
  return lines.join('\n');
}

/** One line naming the exchange: what kind, which try, method and URL. */
export function exchangeTitle(exchange: HttpExchangeView): string {
  const kind = exchange.kind === 'token' ? 'Token request' : exchange.kind === 'test' ? 'Test' : 'Request';
  const attempt = exchange.attempt > 1 ? ` (try ${exchange.attempt})` : '';
  return `${kind}${attempt}: ${exchange.method} ${exchange.url}`;
}

/** The status a reply came with, or why none came. */
export function outcomeText(exchange: HttpExchangeView): string {
  if (exchange.status !== undefined) return `HTTP ${exchange.status}`;
  return exchange.error ? 'Failed' : 'No reply';
}

export function isFailure(exchange: HttpExchangeView): boolean {
  return exchange.error !== undefined || exchange.status === undefined || exchange.status >= 400;
}
