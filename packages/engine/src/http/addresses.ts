import { BlockList, isIP, isIPv4 } from 'node:net';

// Which addresses an outbound request may never reach unless an administrator allowed the host: everything that is
// not a public unicast address (IANA special-purpose registries), plus the IPv6 forms that carry an IPv4 address
// inside (mapped, compatible, NAT64, 6to4), which are judged by that IPv4 address. Cloud metadata addresses and
// names are refused even when allowed: no connection has a reason to reach them.

type Rule = readonly [address: string, prefix: number, reason: string];

const ipv4Rules: readonly Rule[] = [
  ['0.0.0.0', 8, 'a "this network" address (0.0.0.0/8)'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['255.255.255.255', 32, 'the broadcast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

// Checked in order: the narrow ranges before ::/96, which contains them.
const ipv6Rules: readonly Rule[] = [
  ['::', 128, 'the unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['::', 96, 'an IPv4-compatible IPv6 address'],
  ['::ffff:0:0:0', 96, 'an IPv4-translated IPv6 address'],
  ['64:ff9b:1::', 48, 'a local-use NAT64 address'],
  ['100::', 64, 'a discard-only address'],
  ['2001::', 23, 'an IETF protocol address (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['5f00::', 16, 'a segment-routing address'],
  ['fc00::', 7, 'a unique-local address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

function compile(rules: readonly Rule[], family: 'ipv4' | 'ipv6'): { list: BlockList; reason: string }[] {
  return rules.map(([address, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return { list, reason };
  });
}

const ipv4Lists = compile(ipv4Rules, 'ipv4');
const ipv6Lists = compile(ipv6Rules, 'ipv6');

const metadataAddresses = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '169.254.170.23',
  '100.100.100.200',
  '168.63.129.16',
  'fd00:ec2::254',
  'fd00:ec2::23',
]);

const metadataNames = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** The 16 bytes of an IPv6 address (a zone id is ignored), or undefined when it is not one. */
export function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.split('%')[0] ?? '';
  if (isIP(address) !== 6) return undefined;
  // A dotted IPv4 tail becomes its two hexadecimal groups.
  const hex = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((g) => g.toString(16)).join(':'),
  );
  const [left = '', right] = hex.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  if (all.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

const dottedQuad = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, i) => bytes[i] === value);
}

/** The IPv4 address an IPv6 address carries and is routed to (mapped, NAT64, 6to4), if any. */
export function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  if (!b) return undefined;
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return dottedQuad(b, 12);
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return dottedQuad(b, 12);
  if (startsWith(b, [0x20, 0x02])) return dottedQuad(b, 2);
  return undefined;
}

/** The canonical text of an address (IPv6 lower-case and compressed, zone dropped), for set lookups. */
function canonical(address: string): string {
  if (isIPv4(address)) return address;
  try {
    return new URL(`http://[${address.split('%')[0]}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}

export function isMetadataAddress(address: string): boolean {
  const embedded = embeddedIpv4(address);
  return metadataAddresses.has(canonical(address)) || (embedded !== undefined && metadataAddresses.has(embedded));
}

/** A host name (no trailing dot, lower case) that names a metadata service or this machine. */
export function refusedName(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (metadataNames.has(name)) return 'a cloud metadata service';
  if (name === 'localhost' || name.endsWith('.localhost')) return 'this machine (localhost)';
  return undefined;
}

/**
 * Why an address may not be reached (a phrase such as "a loopback address"), or undefined when it is a public
 * unicast address. Anything that is not an IP address is refused too.
 */
export function refusedAddressReason(address: string): string | undefined {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 0) return 'not an IP address';
  if (isMetadataAddress(address)) return 'a cloud metadata address';
  if (family === 4) return ipv4Lists.find((rule) => rule.list.check(address, 'ipv4'))?.reason;
  const bare = address.split('%')[0] ?? '';
  const embedded = embeddedIpv4(bare);
  if (embedded !== undefined) {
    const inner = refusedAddressReason(embedded);
    return inner === undefined ? undefined : `${inner} inside an IPv6 address`;
  }
  return ipv6Lists.find((rule) => rule.list.check(bare, 'ipv6'))?.reason;
}
