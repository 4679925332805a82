import { Socket, isIP } from 'node:net';
import { EngineError } from '../errors.ts';
import { isMetadataAddress, refusedAddressReason, refusedName } from '../http/addresses.ts';
import { type ResolvedAddress, type Resolver, systemResolver } from '../http/guard.ts';
import { canonicalHost, type SqlHostList } from './sql-hosts.ts';

// The outbound guard of SQL connections. PostgreSQL and MariaDB connections open their sockets through it (the
// drivers' `stream` option): it resolves the host itself, judges every address with the Web API guard's address
// rules (addresses.ts: loopback, private, link-local, metadata, the IPv6 forms carrying those, …) against the
// administrator's list, and only then connects, to the very address it judged. So a name that resolves differently
// the second time (DNS rebinding) cannot slip past a check made earlier, and no refused address ever sees a packet:
// a refusal costs the same whether a port is open or not.

const connectSocket: (this: Socket, options: { port: number; host: string }) => Socket = Socket.prototype.connect;

/** A name that does not resolve within this is unreachable (a save or test does not wait on a dead resolver). */
const DNS_TIMEOUT_MS = 5_000;

const HINT = 'an administrator may allow it with SQL_HOST_ALLOWLIST';

function refused(message: string): EngineError {
  return new EngineError('TARGET_REFUSED', message, { errors: { host: [message] } });
}

export class SqlHostGuard {
  readonly #list: SqlHostList;
  readonly #resolve: Resolver;

  constructor(list: SqlHostList, resolve: Resolver = systemResolver) {
    this.#list = list;
    this.#resolve = resolve;
  }

  #nameAllowed(host: string, port: number): boolean {
    return this.#list.entries.some(
      (entry) => entry.kind === 'name' && entry.host === host && (entry.port === undefined || entry.port === port),
    );
  }

  #addressAllowed(address: string, port: number): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    return this.#list.entries.some(
      (entry) =>
        entry.kind === 'addresses' &&
        (entry.port === undefined || entry.port === port) &&
        entry.block.check(address, family),
    );
  }

  async #lookup(host: string): Promise<ResolvedAddress[]> {
    let found: ResolvedAddress[];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('DNS lookup timed out')), DNS_TIMEOUT_MS);
    });
    try {
      found = await Promise.race([this.#resolve(host), late]);
    } catch (error) {
      throw new EngineError('UNREACHABLE', `The host ${host} could not be resolved`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (found.length === 0) throw new EngineError('UNREACHABLE', `The host ${host} could not be resolved`);
    return found;
  }

  /**
   * Resolves a database host and judges every address it has; answers the address to connect to, or throws
   * TARGET_REFUSED (the message says why and what to do) or UNREACHABLE (no such name). Never connects.
   */
  async target(hostAsWritten: string, port: number): Promise<ResolvedAddress> {
    const host = canonicalHost(hostAsWritten);
    if (host === '' || host.startsWith('/'))
      throw refused(
        `The host ${hostAsWritten || '(none)'} is a Unix socket of this machine; use a host name or address`,
      );
    if (refusedName(host) === 'a cloud metadata service')
      throw refused(`The host ${host} is a cloud metadata service and cannot be reached`);
    const literal = isIP(host) !== 0;
    const addresses = literal ? [{ address: host, family: isIP(host) }] : await this.#lookup(host);
    const nameAllowed = !literal && this.#nameAllowed(host, port);
    for (const { address } of addresses) {
      const seen = literal ? `The host ${host} is` : `The host ${host} resolves to ${address},`;
      if (isMetadataAddress(address)) throw refused(`${seen} a cloud metadata address and cannot be reached`);
      if (nameAllowed || this.#addressAllowed(address, port)) continue;
      const reason = refusedAddressReason(address);
      if (reason !== undefined) throw refused(`${seen} ${reason}; ${HINT}`);
      if (!this.#list.anyPublic) {
        const where = literal ? `${host}:${port}` : `${host}:${port} (${address})`;
        throw refused(`The database host ${where} is not in SQL_HOST_ALLOWLIST; an administrator may add it`);
      }
    }
    return addresses[0]!;
  }

  /** Connects the socket to the judged address, or destroys it with the refusal (the driver reports it). */
  #connect(socket: Socket, host: string, port: number): void {
    this.target(host, port).then(
      ({ address }) => {
        if (!socket.destroyed) connectSocket.call(socket, { port, host: address });
      },
      (error: unknown) => socket.destroy(error as Error),
    );
  }

  /** pg's `stream` option: a socket whose connect(port, host) goes through the guard. */
  readonly postgresStream = (): Socket => {
    const socket = new Socket();
    // pg calls connect(port, host), or connect(path) for a Unix socket (refused).
    socket.connect = ((port: number | string, host?: string) => {
      this.#connect(socket, typeof port === 'string' && host === undefined ? port : (host ?? ''), Number(port));
      return socket;
    }) as Socket['connect'];
    return socket;
  };

  /** mysql2's `stream` option: it expects a socket already on its way. */
  readonly mysqlStream = (options: { config: { host?: string; port?: number } }): Socket => {
    const socket = new Socket();
    socket.setNoDelay(true);
    this.#connect(socket, options.config.host ?? '', options.config.port ?? 3306);
    return socket;
  };
}
