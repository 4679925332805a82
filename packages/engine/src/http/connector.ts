import { EngineError, abortError } from '../errors.ts';
import { Gate } from '../connectors/gate.ts';
import { runControl } from '../connectors/run-control.ts';
import {
  JsonRows,
  rowsInMemory,
  type Column,
  type ConnectionTestResult,
  type Connector,
  type Row,
  type RowStream,
  type RunRequest,
} from '../types.ts';
import { headerValue } from './body.ts';
import { HttpClient, type Outgoing, type Reply } from './client.ts';
import {
  type Credential,
  type OAuth2Credential,
  TokenCache,
  applyCredential,
  credentialNames,
  credentialSecrets,
  parseTokenReply,
  tokenRequest,
} from './credentials.ts';
import { type HttpExchange, Redactor } from './exchange.ts';
import type { Resolver } from './guard.ts';
import { type ScannedRows, scanPath, scanRows, scannedObjects } from './json-scan.ts';
import { firstPageUrl, inferColumns, nextPageUrl, rowsAt, shapeRow } from './rows.ts';
import { type HttpSettings, httpSettingsSchema } from './settings.ts';
import { type HttpRequestDefinition, type HttpRequestInput, buildRequest, parseHttpRequest } from './template.ts';

// The Web API connector: a run sends the data source's request (values put in its templates), pages through the
// replies up to the row cap and yields their rows, with columns inferred from the first page. The same Connector
// interface as the SQL connectors, so parameters, transformations, caching and writers are shared; RunRequest.sql
// carries the request definition as JSON (httpRequestText).

export interface HttpConnectorOptions {
  /** Resolves host names (tests inject one); node:dns lookup by default. */
  resolve?: Resolver;
  /** The clock of the OAuth2 token cache (ms). */
  now?: () => number;
  /**
   * Reads a JSON reply's rows with the byte scan (json-scan.ts) where it answers: the default. false parses every
   * reply with JSON.parse, the library path the scan is held to (json-scan.test.ts runs both).
   */
  scan?: boolean;
}

type OnExchange = ((exchange: HttpExchange) => void) | undefined;

/** Shared between calls, so frozen: a stage that changed it would throw rather than change the next call. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Parsed request definitions a connector keeps (one per asset in use on its connection). */
const MAX_PARSED_DEFINITIONS = 500;

export interface HttpRunRequest extends Omit<RunRequest, 'sql'> {
  definition: HttpRequestInput | string;
}

export interface HttpTestResult extends ConnectionTestResult {
  status: number;
}

export interface HttpConnector extends Connector {
  readonly kind: 'http';
  /** Runs a request definition (the typed form of run). */
  request(request: HttpRunRequest): Promise<RowStream>;
  /** Sends GET to the base URL (with a credential when named): reachable, and is the credential accepted? */
  test(options?: { credential?: string; signal?: AbortSignal; onExchange?: OnExchange }): Promise<HttpTestResult>;
}

function isHtml(reply: Reply): boolean {
  return /html/i.test(headerValue(reply.headers, 'content-type') ?? '');
}

function parseJson(reply: Reply): unknown {
  if (reply.data.length === 0) return null;
  if (isHtml(reply)) throw new EngineError('UPSTREAM_FAILED', 'The web API answered HTML where JSON was expected');
  try {
    return JSON.parse(reply.data.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new EngineError('UPSTREAM_FAILED', "The web API's reply is not JSON");
  }
}

function statusError(status: number): EngineError {
  return new EngineError('UPSTREAM_FAILED', `The web API answered with status ${status}`);
}

interface CallContext {
  kind: HttpExchange['kind'];
  signal: AbortSignal;
  onExchange: OnExchange;
}

export function createHttpConnector(input: HttpSettings, options: HttpConnectorOptions = {}): HttpConnector {
  const settings = httpSettingsSchema.parse(input);
  const scan = options.scan ?? true;
  const base = new URL(settings.baseUrl);
  const client = new HttpClient(settings, options.resolve);
  const gate = new Gate({ size: settings.maxConnections, acquireTimeoutMs: settings.acquireTimeoutMs });
  const credentials = new Map(settings.credentials.map((c) => [c.id, c]));
  const redactor = new Redactor(
    settings.credentials.flatMap(credentialSecrets),
    settings.credentials.flatMap(credentialNames),
  );

  async function fetchToken(credential: OAuth2Credential, signal: AbortSignal, onExchange: OnExchange) {
    const url = new URL(credential.tokenUrl);
    const request = tokenRequest(credential);
    const reply = await client.send(
      { method: 'POST', url, ...request },
      { kind: 'token', signal, redactor, onExchange, home: url.origin, followRedirects: false },
    );
    if (reply.status < 200 || reply.status >= 300)
      throw new EngineError('UPSTREAM_FAILED', `The OAuth2 token request was refused (status ${reply.status})`);
    return parseTokenReply(parseJson(reply));
  }
  const tokens = new TokenCache<OnExchange>(
    fetchToken,
    settings.connectTimeoutMs + settings.headersTimeoutMs + settings.bodyTimeoutMs,
    options.now,
  );

  function credentialNamed(id: string | undefined): Credential | undefined {
    if (id === undefined) return undefined;
    const credential = credentials.get(id);
    if (!credential) throw new EngineError('QUERY_FAILED', `The credential ${id} does not exist on this connection`);
    return credential;
  }

  /** How a request goes out with the credential (and the OAuth2 token it carries, if any). */
  function sendOptions(credential: Credential | undefined, token: string | undefined, context: CallContext) {
    return {
      ...context,
      redactor: token === undefined ? redactor : redactor.with([token]),
      home: base.origin,
      authorize: credential
        ? (url: URL, headers: Record<string, string>) => applyCredential(credential, url, headers, token)
        : undefined,
      followRedirects: true,
    };
  }

  /**
   * Sends a request with the credential (a refused OAuth2 token is replaced once); any status comes back. Without
   * an OAuth2 credential it is the client's send itself: no promise of its own.
   */
  function sendAuthorized(out: Outgoing, credential: Credential | undefined, context: CallContext): Promise<Reply> {
    if (credential?.kind !== 'oauth2') return client.send(out, sendOptions(credential, undefined, context));
    return sendWithToken(out, credential, context);
  }

  async function sendWithToken(out: Outgoing, credential: OAuth2Credential, context: CallContext): Promise<Reply> {
    const attempt = async () => {
      const token = await tokens.get(credential, context.signal, context.onExchange);
      return { reply: await client.send(out, sendOptions(credential, token, context)), token };
    };
    const first = await attempt();
    if (first.reply.status !== 401) return first.reply;
    tokens.invalidate(credential, first.token);
    return (await attempt()).reply;
  }

  /**
   * Reads pages one at a time: each read fetches the next page and answers its rows (undefined after the last);
   * hasMore tells whether a read would fetch another. A read asked to scan answers the rows as the reply's bytes
   * (json-scan.ts) when the reply allows it and the next page's URL needs nothing from inside the reply.
   */
  function pageReader(definition: HttpRequestDefinition, built: Outgoing, credential: Credential | undefined) {
    let url: URL | undefined = firstPageUrl(built.url, definition.paging);
    let index = 0;
    // Pages already asked for (a next link back to one of them ends the paging); none to keep without paging.
    const seen = definition.paging.kind === 'none' ? undefined : new Set<string>();
    const { paging } = definition;
    const path = paging.kind === 'next' && paging.path !== '' ? undefined : scanPath(definition.rowsPath);
    const hasMore = () => url !== undefined && index < settings.maxPages;
    function read(context: CallContext): Promise<Row[] | undefined>;
    function read(context: CallContext, scan: boolean): Promise<Row[] | ScannedRows | undefined>;
    async function read(context: CallContext, scan = false): Promise<Row[] | ScannedRows | undefined> {
      const asked = url;
      if (asked === undefined || index >= settings.maxPages) return undefined;
      seen?.add(asked.href);
      const reply = await sendAuthorized({ ...built, url: asked }, credential, context);
      if (reply.status < 200 || reply.status >= 300) throw statusError(reply.status);
      const scanned = scan && path !== undefined && !isHtml(reply) ? scanRows(reply.data, path) : undefined;
      const json = scanned ? undefined : parseJson(reply);
      const rows = scanned ?? rowsAt(json, definition.rowsPath);
      const next = nextPageUrl(paging, {
        url: asked,
        replyUrl: reply.url,
        reply: json,
        headers: reply.headers,
        rows: scanned ? scanned.starts.length : (rows as Row[]).length,
        index,
      });
      index += 1;
      url = next && !seen?.has(next.href) ? next : undefined;
      return rows;
    }
    return { read, hasMore };
  }

  /** Definitions given as text (every call of a stored asset), parsed once: parsing and checking cost more than a call's rows. */
  const parsedDefinitions = new Map<string, HttpRequestDefinition>();
  function definitionOf(input: HttpRunRequest['definition']): HttpRequestDefinition {
    if (typeof input !== 'string') return parseHttpRequest(input);
    const known = parsedDefinitions.get(input);
    if (known) return known;
    const parsed = deepFreeze(parseHttpRequest(input));
    if (parsedDefinitions.size >= MAX_PARSED_DEFINITIONS) parsedDefinitions.clear();
    parsedDefinitions.set(input, parsed);
    return parsed;
  }

  async function request(run: HttpRunRequest): Promise<RowStream> {
    const definition = definitionOf(run.definition);
    const credential = credentialNamed(definition.credential);
    const built = buildRequest(base, settings.headers, definition, run.values);
    const cap = Math.min(settings.maxRows, run.readLimit ?? Number.POSITIVE_INFINITY);
    const pages = pageReader(definition, built, credential);
    // close() before the last page stops the request in flight too (control.abort).
    const control = runControl(run.timeoutMs, run.signal);
    const context: CallContext = { kind: 'request', signal: control.signal, onExchange: run.onExchange };
    let release: (() => void) | undefined;
    let first: Row[] | ScannedRows | undefined;
    try {
      release = await gate.acquire(control.signal);
      run.onAcquired?.();
      // Columns come from the first page with rows (a scanned page always has some).
      do first = await pages.read(context, scan);
      while (Array.isArray(first) && first.length === 0);
    } catch (error) {
      release?.();
      control.dispose();
      throw error;
    }
    const scanned = first === undefined || Array.isArray(first) ? undefined : first;
    const columns: Column[] = scanned ? scanned.columns : inferColumns((first as Row[] | undefined) ?? []);
    const releaseGate = release;
    // One page holds every row the caller reads (no paging, the last page, or the cap within it): the run ends
    // here, with nothing in flight to stop.
    const firstCount = scanned ? scanned.starts.length : ((first as Row[] | undefined)?.length ?? 0);
    if (!pages.hasMore() || firstCount >= cap) {
      releaseGate();
      control.dispose();
      const close = async () => undefined;
      if (scanned) {
        return { columns, rows: new JsonRows(scanned.data, scanned.starts, scanned.ends, scanned.names, cap), close };
      }
      const page = (first as Row[] | undefined) ?? [];
      const kept = page.length > cap ? page.slice(0, cap) : page;
      return { columns, rows: rowsInMemory(kept.map((row) => shapeRow(row, columns))), close };
    }

    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      control.signal.removeEventListener('abort', finish);
      control.abort(new EngineError('CANCELLED'));
      releaseGate();
      control.dispose();
    };
    control.signal.addEventListener('abort', finish, { once: true });
    // Rows that stream are objects: a scanned first page is parsed after all.
    let current: Row[] | undefined = scanned ? scannedObjects(scanned) : (first as Row[] | undefined);
    async function* rows(): AsyncGenerator<Row> {
      try {
        let count = 0;
        while (current && count < cap) {
          for (const row of current) {
            if (count >= cap) break;
            yield shapeRow(row, columns);
            count += 1;
          }
          if (count >= cap) break;
          if (control.signal.aborted || finished) throw abortError(control.signal);
          current = await pages.read(context);
        }
      } finally {
        finish();
      }
    }
    return { columns, rows: rows(), close: async () => finish() };
  }

  async function test(
    testOptions: { credential?: string; signal?: AbortSignal; onExchange?: OnExchange } = {},
  ): Promise<HttpTestResult> {
    const credential = credentialNamed(testOptions.credential);
    const control = runControl(settings.connectTimeoutMs + settings.headersTimeoutMs, testOptions.signal);
    try {
      const reply = await sendAuthorized(
        { method: 'GET', url: new URL(base), headers: { accept: 'application/json', ...lower(settings.headers) } },
        credential,
        { kind: 'test', signal: control.signal, onExchange: testOptions.onExchange },
      );
      const server = headerValue(reply.headers, 'server');
      const warnings: string[] = [];
      if (reply.status === 401 || reply.status === 403)
        warnings.push(`The base URL answered ${reply.status}: the credential was not accepted`);
      else if (reply.status >= 400) warnings.push(`The base URL answered with status ${reply.status}`);
      return {
        ok: reply.status < 500,
        status: reply.status,
        serverVersion: `HTTP ${reply.status}${server ? ` (${server})` : ''}`,
        warnings,
      };
    } finally {
      control.dispose();
    }
  }

  return {
    kind: 'http',
    request,
    test,
    run: (run) => request({ ...run, definition: run.sql }),
    testConnection: (signal) => test(signal ? { signal } : {}),
    listSchema: async () => [],
    close: () => client.close(),
  };
}

function lower(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
