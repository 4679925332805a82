import { describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { embeddedIpv4, ipv6Bytes, refusedAddressReason } from './addresses.ts';
import { OutboundGuard, parseAllowedHost, type Resolver } from './guard.ts';

// The guard's judgement, without a socket: which addresses are refused, in which written forms, and what an
// allowed host changes. The connect-time check is in guard.int.test.ts, against real sockets.

const publicResolver: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];

async function refusal(url: string, guard = new OutboundGuard({ resolve: publicResolver })): Promise<string> {
  try {
    await guard.check(url);
  } catch (error) {
    if (isEngineError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'allowed';
}

describe('refusedAddressReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['192.0.0.8', 'IETF'],
    ['192.88.99.1', '6to4 relay'],
    ['168.63.129.16', 'metadata'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001::1', 'IETF'],
    ['2001:2::1', 'IETF'],
    ['100::1', 'discard'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::1', 'NAT64'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['not-an-ip', 'not an IP'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(refusedAddressReason(address)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '172.32.0.1',
    '100.128.0.1',
    '11.0.0.1',
  ])('lets the public address %s through', (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
  });

  it('reads IPv6 bytes, dotted tails and embedded IPv4 addresses', () => {
    expect([...(ipv6Bytes('::ffff:1.2.3.4') ?? [])].slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect([...(ipv6Bytes('1::') ?? [])]).toEqual([0, 1, ...new Array<number>(14).fill(0)]);
    expect(ipv6Bytes('1.2.3.4')).toBeUndefined();
    expect(embeddedIpv4('2002:0a01:0203::')).toBe('10.1.2.3');
    expect(embeddedIpv4('64:ff9b::0a00:0001')).toBe('10.0.0.1');
    expect(embeddedIpv4('2606:4700::1')).toBeUndefined();
  });
});

describe('OutboundGuard.check', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.1/',
    'http://0/',
    'http://%31%32%37.0.0.1/',
    'http://127。0。0。1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://10.0.0.1:8080/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://api.localhost/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://metadata.google.internal./',
  ])('refuses %s', async (url) => {
    expect(await refusal(url)).toMatch(/^TARGET_REFUSED: /);
  });

  it.each([
    'file:///etc/passwd',
    'gopher://example.com/',
    'ftp://example.com/',
    'data:text/plain,x',
    'javascript:alert(1)',
    'ws://example.com/',
  ])('refuses the scheme of %s', async (url) => {
    expect(await refusal(url)).toMatch(/^TARGET_REFUSED: Only http and https/);
  });

  it('refuses user info in a URL and a URL that does not parse', async () => {
    expect(await refusal('https://user:pw@example.com/')).toMatch(/user name or password/);
    expect(await refusal('http://[::1/')).toMatch(/not valid/);
  });

  it('refuses a name when any of its addresses is internal, and says so without the address', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const message = await refusal('https://api.example.com/', new OutboundGuard({ resolve: mixed }));
    expect(message).toMatch(/^TARGET_REFUSED: The host api.example.com resolves to a private address/);
    expect(message).not.toContain('10.0.0.5');
    expect(await refusal('https://api.example.com/')).toBe('allowed');
  });

  it('answers UNREACHABLE for a name that does not resolve', async () => {
    const failing: Resolver = () => Promise.reject(new Error('ENOTFOUND'));
    expect(await refusal('https://nowhere.example/', new OutboundGuard({ resolve: failing }))).toMatch(
      /^UNREACHABLE: The host nowhere.example could not be resolved/,
    );
  });

  it('lets an allowed host or host:port through, in any of its written forms, and nothing else', async () => {
    const guard = new OutboundGuard({
      allowedHosts: ['127.0.0.1:8080', 'intranet.local', '[::1]:9000'],
      resolve: publicResolver,
    });
    expect(await refusal('http://127.0.0.1:8080/x', guard)).toBe('allowed');
    expect(await refusal('http://2130706433:8080/x', guard)).toBe('allowed');
    expect(await refusal('http://0x7f.1:8080/x', guard)).toBe('allowed');
    expect(await refusal('http://127.0.0.1:8081/x', guard)).toMatch(/^TARGET_REFUSED/);
    expect(await refusal('http://127.0.0.1/x', guard)).toMatch(/^TARGET_REFUSED/);
    expect(await refusal('http://intranet.local:1234/', guard)).toBe('allowed');
    expect(await refusal('http://INTRANET.local./', guard)).toBe('allowed');
    expect(await refusal('http://[::1]:9000/', guard)).toBe('allowed');
    expect(await refusal('http://[::1]:9001/', guard)).toMatch(/^TARGET_REFUSED/);
    // A host that passed is remembered by scheme and port only: user info is refused on it, other ports judged.
    expect(await refusal('http://user@127.0.0.1:8080/x', guard)).toMatch(/user name or password/);
    expect(await refusal('http://127.0.0.1:8080/again', guard)).toBe('allowed');
    expect(await refusal('http://127.0.0.1:8082/x', guard)).toMatch(/^TARGET_REFUSED/);
  });

  it('judges every URL of a public address, and a public name once per interval, without letting others by', async () => {
    const guard = new OutboundGuard({ resolve: publicResolver });
    expect(await refusal('http://93.184.216.34/x', guard)).toBe('allowed');
    expect(await refusal('http://93.184.216.34/y', guard)).toBe('allowed');
    expect(await refusal('http://127.0.0.1/x', guard)).toMatch(/loopback/);
    expect(await refusal('http://93.184.216.35:81/', guard)).toBe('allowed');
    expect(await refusal('ftp://93.184.216.34/x', guard)).toMatch(/Only http and https/);
  });

  it('never lets a metadata service through, even when allowed', async () => {
    const guard = new OutboundGuard({
      allowedHosts: ['169.254.169.254', 'metadata.google.internal', 'evil.example'],
      resolve: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(await refusal('http://169.254.169.254/', guard)).toMatch(/metadata/);
    expect(await refusal('http://metadata.google.internal/', guard)).toMatch(/metadata/);
    expect(await refusal('http://[::ffff:a9fe:a9fe]/', guard)).toMatch(/metadata/);
  });

  it('refuses allowed-host entries that are not a host or host:port', () => {
    for (const entry of ['http://x.com', 'x.com/path', 'user@x.com', 'x.com:99999', 'x.com:0', '']) {
      expect(() => parseAllowedHost(entry)).toThrow(/not a host name/);
    }
    expect(parseAllowedHost('0x7f.1:80')).toEqual({ host: '127.0.0.1', port: 80 });
    expect(parseAllowedHost('[::1]')).toEqual({ host: '::1', port: undefined });
  });
});
