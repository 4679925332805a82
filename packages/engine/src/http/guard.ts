import type { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup } from 'node:dns/promises';
import { type LookupFunction, isIP } from 'node:net';
import type { buildConnector } from 'undici';
import { EngineError } from '../errors.ts';
import { isMetadataAddress, refusedAddressReason, refusedName } from './addresses.ts';

// The outbound guard. A URL is checked before a request (scheme, no user info, the host's name, a literal address
// in any of its forms — the WHATWG parser has already turned 2130706433, 0177.0.0.1, 0x7f.1 and 127.1 into
// 127.0.0.1 — and every address the name resolves to), and again at connect time on the addresses the socket
// actually connects to, so a name that answers differently the second time (DNS rebinding) is still refused.
// An administrator may allow a host (any port) or host:port per connection; metadata services stay refused.

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (tests inject their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, order: 'verbatim' });

/** Where a fresh connection's time went; filled in by the connector for the request that opened it. */
export interface ConnectTimings {
  dnsMs?: number;
  connectMs?: number;
}

export interface GuardOptions {
  /** 'host' (any port) or 'host:port' ('[::1]:8080' for IPv6): reachable even when internal. */
  allowedHosts?: readonly string[];
  resolve?: Resolver;
}

interface AllowedHost {
  host: string;
  port: number | undefined;
}

const allowedHostPattern = /^(\[[^\]\s]+\]|[^:/?#@[\]\s]+)(?::(\d{1,5}))?$/;

/** A host as compared: no brackets, no trailing dot, lower case (the WHATWG form of numeric hosts). */
function hostKey(hostname: string): string {
  // A URL's own host name (lower case, not bracketed, no trailing dot) is its key already: no copies a request.
  const last = hostname.charCodeAt(hostname.length - 1);
  if (hostname.charCodeAt(0) !== 91 /* [ */ && last !== 46 /* . */ && last !== 93 /* ] */ && !/[A-Z]/.test(hostname))
    return hostname;
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/** Parses one allowed-host entry; throws a TARGET_REFUSED error naming it when it is not a host or host:port. */
export function parseAllowedHost(entry: string): AllowedHost {
  const match = allowedHostPattern.exec(entry.trim());
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  try {
    if (!match?.[1] || (port !== undefined && (port < 1 || port > 65535))) throw new Error('bad entry');
    return { host: hostKey(new URL(`http://${match[1]}/`).hostname), port };
  } catch {
    throw new EngineError('TARGET_REFUSED', `The allowed host "${entry}" is not a host name or host:port`);
  }
}

const defaultPorts: Record<string, number> = { 'http:': 80, 'https:': 443 };

function refused(message: string): EngineError {
  return new EngineError('TARGET_REFUSED', message);
}

const allowHint = '; an administrator can allow the host on the connection';

/** How long a name whose addresses were all public is not resolved again before a request (connect still is). */
const checkedTtlMs = 10_000;
const maxChecked = 1_000;

/** Remembers a host that passed without a lookup (a bounded set: a host seen again after a clear is judged again). */
function pass(passed: Set<string>, host: string): undefined {
  if (passed.size >= maxChecked) passed.clear();
  passed.add(host);
  return undefined;
}

export class OutboundGuard {
  readonly #allowed: AllowedHost[];
  readonly #resolve: Resolver;
  /** Names found public lately (host → until). Only saves a lookup: every new socket is checked at connect time. */
  readonly #checked = new Map<string, number>();
  /**
   * Hosts (host[:port] as URLs write them), by scheme, that passed without a lookup: allowed, or a public address.
   * Neither can change for this guard, so a later URL on one of them is not judged again.
   */
  readonly #passed: Record<string, Set<string> | undefined> = { 'http:': new Set(), 'https:': new Set() };

  constructor(options: GuardOptions = {}) {
    this.#allowed = (options.allowedHosts ?? []).map(parseAllowedHost);
    this.#resolve = options.resolve ?? systemResolver;
  }

  /** Whether an administrator allowed this host (and port) for the connection. */
  allows(hostname: string, port: number): boolean {
    const host = hostKey(hostname);
    return this.#allowed.some((entry) => entry.host === host && (entry.port === undefined || entry.port === port));
  }

  /** Checks a URL before it is requested; answers the parsed URL or throws TARGET_REFUSED / UNREACHABLE. */
  async check(input: string | URL): Promise<URL> {
    let url: URL;
    try {
      url = input instanceof URL ? input : new URL(input);
    } catch {
      throw refused('The URL is not valid');
    }
    await this.checkUrl(url);
    return url;
  }

  /**
   * check() on a parsed URL, with no promise (and no await) when nothing needs resolving: throws at once when the
   * URL is refused; answers a promise only when its host's name is looked up first.
   */
  checkUrl(url: URL): Promise<void> | undefined {
    const port = defaultPorts[url.protocol];
    if (port === undefined) throw refused(`Only http and https URLs are allowed, not ${url.protocol}`);
    if (url.username !== '' || url.password !== '')
      throw refused('A URL cannot carry a user name or password; use a credential');
    const passed = this.#passed[url.protocol]!;
    if (passed.has(url.host)) return undefined;
    const host = hostKey(url.hostname);
    const name = refusedName(host);
    if (name === 'a cloud metadata service') throw refused(`The host ${host} is ${name} and cannot be reached`);
    if (isIP(host) !== 0 && isMetadataAddress(host))
      throw refused(`The address ${host} is a cloud metadata address and cannot be reached`);
    if (this.allows(host, url.port === '' ? port : Number(url.port))) return pass(passed, url.host);
    if (name !== undefined) throw refused(`The host ${host} is ${name} and cannot be reached${allowHint}`);
    if (isIP(host) !== 0) {
      const reason = refusedAddressReason(host);
      if (reason !== undefined) throw refused(`The address ${host} is ${reason} and cannot be reached${allowHint}`);
      return pass(passed, url.host);
    }
    if ((this.#checked.get(host) ?? 0) > performance.now()) return undefined;
    return this.#lookup(host).then((addresses) => {
      this.#judge(host, addresses);
      if (this.#checked.size >= maxChecked) this.#checked.clear();
      this.#checked.set(host, performance.now() + checkedTtlMs);
    });
  }

  async #lookup(host: string): Promise<ResolvedAddress[]> {
    try {
      return await this.#resolve(host);
    } catch (error) {
      throw new EngineError('UNREACHABLE', `The host ${host} could not be resolved`, { cause: error });
    }
  }

  /** Refuses a host when any of its addresses is not public (metadata even when the host is allowed). */
  #judge(host: string, addresses: readonly ResolvedAddress[], allowed = false): void {
    if (addresses.length === 0) throw new EngineError('UNREACHABLE', `The host ${host} could not be resolved`);
    for (const { address } of addresses) {
      if (isMetadataAddress(address))
        throw refused(`The host ${host} resolves to a cloud metadata address and cannot be reached`);
      if (allowed) continue;
      const reason = refusedAddressReason(address);
      if (reason !== undefined)
        throw refused(`The host ${host} resolves to ${reason} and cannot be reached${allowHint}`);
    }
  }

  /** A net.connect lookup that resolves through the guard's resolver and refuses what the host may not reach. */
  #connectLookup(allowed: boolean, store: AsyncLocalStorage<ConnectTimings> | undefined): LookupFunction {
    return (hostname, options, callback) => {
      const timings = store?.getStore();
      const started = performance.now();
      this.#lookup(hostname)
        .then((all) => {
          if (timings) timings.dnsMs = performance.now() - started;
          this.#judge(hostKey(hostname), all, allowed);
          const wanted = all.filter((a) => !options.family || a.family === options.family);
          const first = wanted[0];
          if (!first) throw new EngineError('UNREACHABLE', `The host ${hostname} could not be resolved`);
          if (options.all) callback(null, wanted);
          else callback(null, first.address, first.family);
        })
        .catch((error: unknown) => callback(error as NodeJS.ErrnoException, ''));
    };
  }

  /**
   * undici's `connect` option: each new socket is checked on its host (allowed or not), on the addresses its name
   * resolves to (before connecting) and on the address it reached (before any byte is sent on plain HTTP).
   * `buildSocket` is undici's buildConnector, passed in by the client that loaded undici.
   */
  connector(
    buildSocket: typeof buildConnector,
    options: { connectTimeoutMs: number; timings?: AsyncLocalStorage<ConnectTimings> },
  ): buildConnector.connector {
    const build = (allowed: boolean) =>
      buildSocket({ timeout: options.connectTimeoutMs, lookup: this.#connectLookup(allowed, options.timings) });
    const checked = build(false);
    const trusted = build(true);
    return (params, callback) => {
      const timings = options.timings?.getStore();
      const started = performance.now();
      const host = hostKey(params.hostname);
      const port =
        params.port === '' || params.port === undefined ? defaultPorts[params.protocol] : Number(params.port);
      const allowed = this.allows(host, port ?? 0);
      const literal = isIP(host) !== 0;
      const reason = literal ? refusedAddressReason(host) : undefined;
      if (literal && (isMetadataAddress(host) || (!allowed && reason !== undefined))) {
        callback(refused(`The address ${host} is ${reason ?? 'refused'} and cannot be reached${allowHint}`), null);
        return;
      }
      (allowed ? trusted : checked)(params, (error, socket) => {
        if (error || !socket) {
          callback(error ?? new EngineError('UNREACHABLE'), null);
          return;
        }
        const reached = socket.remoteAddress ?? '';
        const late = isMetadataAddress(reached) || (!allowed && refusedAddressReason(reached) !== undefined);
        if (late) {
          socket.destroy();
          callback(refused(`The host ${host} reached a refused address and the connection was closed`), null);
          return;
        }
        if (timings) timings.connectMs = performance.now() - started - (timings.dnsMs ?? 0);
        callback(null, socket);
      });
    };
  }
}
