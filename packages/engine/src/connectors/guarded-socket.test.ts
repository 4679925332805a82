import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import type { Resolver } from '../http/guard.ts';
import { SqlHostGuard } from './guarded-socket.ts';
import { parseSqlHostList } from './sql-hosts.ts';

// The SQL host guard on its own: what it refuses (every form of an internal address, names resolving to one,
// unlisted hosts when the list has no `*`), what a list allows, and that a refused socket never connects.

const zone: Resolver = async (name) => {
  const answers: Record<string, string[]> = {
    'db.internal': ['10.0.0.5'],
    'public.example': ['93.184.216.34'],
    'mixed.example': ['93.184.216.34', '127.0.0.1'],
    'meta.example': ['169.254.169.254'],
  };
  const found = answers[name];
  if (!found) throw new Error('ENOTFOUND');
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const guard = (list?: string) => new SqlHostGuard(parseSqlHostList(list).list, zone);

async function refusal(g: SqlHostGuard, host: string, port = 5432): Promise<string> {
  try {
    await g.target(host, port);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('TARGET_REFUSED');
    return (error as EngineError).message;
  }
  return 'allowed';
}

describe('SqlHostGuard', () => {
  it('refuses internal addresses in every written form and names that resolve to one, when unset', async () => {
    const g = guard();
    const forms = ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '0177.0.0.1', '[::1]', '::ffff:127.0.0.1'];
    for (const host of forms) expect(await refusal(g, host), host).toMatch(/loopback address/);
    expect(await refusal(g, '10.1.2.3')).toMatch(/private address/);
    expect(await refusal(g, 'fe80::1%eth0')).toMatch(/link-local address/);
    expect(await refusal(g, 'db.internal')).toBe(
      'The host db.internal resolves to 10.0.0.5, a private address; an administrator may allow it with SQL_HOST_ALLOWLIST',
    );
    // One internal address among public ones is enough.
    expect(await refusal(g, 'mixed.example')).toMatch(/resolves to 127\.0\.0\.1, a loopback address/);
    expect(await refusal(g, 'meta.example')).toMatch(/cloud metadata address and cannot be reached/);
    expect(await refusal(g, 'public.example')).toBe('allowed');
    await expect(g.target('nowhere.example', 5432)).rejects.toMatchObject({ code: 'UNREACHABLE' });
  });

  it('allows what the list names, on the port it names, and public hosts only with *', async () => {
    const g = guard('db.internal:5432, 127.0.0.0/8:3306, 169.254.0.0/16');
    expect(await refusal(g, 'db.internal', 5432)).toBe('allowed');
    expect(await refusal(g, 'db.internal', 5433)).toMatch(/private address/);
    expect(await refusal(g, '127.0.0.9', 3306)).toBe('allowed');
    expect(await refusal(g, '2130706433', 3306)).toBe('allowed');
    expect(await refusal(g, 'public.example')).toMatch(/is not in SQL_HOST_ALLOWLIST/);
    expect(await refusal(g, '169.254.169.254')).toMatch(/metadata/);
    expect(await refusal(guard('*,db.internal'), 'public.example')).toBe('allowed');
  });

  describe('sockets', () => {
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    let connections = 0;
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('never connects a refused socket, and connects an allowed one to the judged address', async () => {
      const refused = guard().postgresStream();
      refused.connect(port, '127.0.0.1');
      const error = await new Promise<Error>((resolve) => refused.on('error', resolve));
      expect(error).toMatchObject({ code: 'TARGET_REFUSED' });
      const mysql = guard().mysqlStream({ config: { host: 'db.internal', port } });
      expect(await new Promise<Error>((resolve) => mysql.on('error', resolve))).toMatchObject({
        code: 'TARGET_REFUSED',
      });
      expect(connections).toBe(0);
      const allowed = guard(`127.0.0.1:${port}`).postgresStream();
      allowed.connect(port, '127.0.0.1');
      await new Promise((resolve) => allowed.on('connect', resolve));
      allowed.destroy();
      await expect.poll(() => connections).toBe(1);
    });
  });
});
