import { BlockList, isIP } from 'node:net';

// The entries of a SQL host allowlist (SQL_HOST_ALLOWLIST on the server), parsed once. Kept free of the drivers so
// the server's configuration can check the variable without loading them.
//
//   `*`                        any host whose every address is public
//   `db.example.com`           that name (any port), whatever it resolves to, internal addresses included
//   `db.example.com:5432`      that name on that port only
//   `10.0.0.5`, `[fd00::5]:5432`, `fd00::5`   that address (a name resolving to it is allowed too)
//   `10.0.0.0/8`, `fd00::/8`   every address in that block (`10.0.0.0/8:5432`, `[fd00::/8]:5432`: on that port)
//
// Metadata addresses and names are never allowed, whatever the list says.

export type SqlHostEntry =
  | { kind: 'any-public'; text: string }
  | { kind: 'name'; text: string; host: string; port: number | undefined }
  | { kind: 'addresses'; text: string; block: BlockList; port: number | undefined };

const namePattern = /^[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?$/i;

/** A host name as compared: lower case, no trailing dot of a fully qualified name, no IPv6 brackets. */
export function sqlHostKey(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/(?<=.)\.$/, '');
}

/**
 * The address a numeric host stands for in the forms resolvers accept (2130706433, 0x7f.1, 0177.0.0.1, 127.1 are
 * all 127.0.0.1), as the WHATWG URL parser reads them; any other host as it is.
 */
export function canonicalHost(host: string): string {
  const key = sqlHostKey(host);
  if (isIP(key) === 4) return key;
  if (isIP(key) === 6) {
    // An address with a zone (fe80::1%eth0) is kept as written: the address rules ignore the zone.
    try {
      return new URL(`http://[${key}]/`).hostname.slice(1, -1);
    } catch {
      return key;
    }
  }
  if (!/^[0-9a-fx.]+$/i.test(key)) return key;
  try {
    const parsed = new URL(`http://${key}/`).hostname;
    return isIP(parsed) === 4 ? parsed : key;
  } catch {
    return key;
  }
}

function portOf(text: string | undefined): number | undefined | false {
  if (text === undefined) return undefined;
  const port = Number(text);
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? port : false;
}

function block(address: string, prefix: number | undefined): BlockList | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const max = family === 4 ? 32 : 128;
  if (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 0 || prefix > max)) return undefined;
  const list = new BlockList();
  list.addSubnet(address, prefix ?? max, type);
  return list;
}

/** One entry, or undefined when it is neither `*`, a host, host:port, an address nor a CIDR block. */
export function parseSqlHostEntry(raw: string): SqlHostEntry | undefined {
  const text = raw.trim();
  if (text === '*') return { kind: 'any-public', text };
  const cidr =
    /^\[([0-9a-f:.]+)\/(\d{1,3})\](?::(\d+))?$/i.exec(text) ?? /^([0-9a-f:.]+)\/(\d{1,3})(?::(\d+))?$/i.exec(text);
  if (cidr) {
    const list = block(cidr[1] ?? '', Number(cidr[2]));
    const port = portOf(cidr[3]);
    return list && port !== false ? { kind: 'addresses', text, block: list, port } : undefined;
  }
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(text);
  const bareIpv6 = isIP(text) === 6 ? [text, text, undefined] : undefined;
  const plain = /^([^\s:/[\]@]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? bareIpv6 ?? plain;
  if (!match) return undefined;
  const port = portOf(match[2]);
  if (port === false) return undefined;
  const host = canonicalHost(match[1] ?? '');
  if (isIP(host) !== 0) return { kind: 'addresses', text, block: block(host, undefined)!, port };
  if (!namePattern.test(host) || /^[0-9.]+$/.test(host)) return undefined;
  return { kind: 'name', text, host, port };
}

export interface SqlHostList {
  /** Hosts whose every address is public may be reached without an entry (`*`, or no list at all). */
  anyPublic: boolean;
  entries: SqlHostEntry[];
}

/** A comma-separated list; unset or empty: any public host and nothing internal. */
export function parseSqlHostList(value: string | undefined): { list: SqlHostList; problems: string[] } {
  const entries: SqlHostEntry[] = [];
  const problems: string[] = [];
  const parts = (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const part of parts) {
    const entry = parseSqlHostEntry(part);
    if (entry) entries.push(entry);
    else problems.push(`'${part}' is not *, a host, host:port, an IP address or a CIDR block`);
  }
  const anyPublic = parts.length === 0 || entries.some((entry) => entry.kind === 'any-public');
  return { list: { anyPublic, entries: entries.filter((entry) => entry.kind !== 'any-public') }, problems };
}

/** The list as one canonical text (what the audit record compares): sorted entries, `*` when public hosts pass. */
export function describeSqlHostList(list: SqlHostList): string {
  const texts = list.entries.map((entry) => entry.text.toLowerCase()).sort();
  return [...(list.anyPublic ? ['*'] : []), ...new Set(texts)].join(',');
}
