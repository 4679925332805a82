import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { collect } from '../../test/support/collect.ts';
import { type TestServer, json, startServer } from '../../test/support/http-server.ts';
import { createHttpConnector } from './connector.ts';
import type { HttpExchange } from './exchange.ts';
import type { Resolver } from './guard.ts';
import type { HttpSettings } from './settings.ts';

// The outbound guard against real sockets: a server on 127.0.0.1 is refused unless allowed, in every written form
// of its address; a name that rebinds to 127.0.0.1 between the check and the connect is refused at connect time;
// redirects and the OAuth2 token request are guarded too. `target.seen` shows the refused requests never arrived.

let target: TestServer;
let other: TestServer;

beforeAll(async () => {
  target = await startServer((request, response) => json(response, [{ path: request.url }]));
  other = await startServer((request, response) => json(response, [{ other: request.url }]));
});

afterAll(async () => {
  await target.close();
  await other.close();
});

async function run(settings: HttpSettings, definition: Record<string, unknown> = {}, resolve?: Resolver) {
  const connector = createHttpConnector({ retries: 0, ...settings }, resolve ? { resolve } : {});
  const exchanges: HttpExchange[] = [];
  try {
    const stream = await connector.request({
      definition,
      values: {},
      timeoutMs: 5_000,
      onExchange: (e) => exchanges.push(e),
    });
    return { rows: await collect(stream.rows), exchanges };
  } finally {
    await connector.close();
  }
}

async function refusal(work: Promise<unknown>): Promise<EngineError> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an engine error, got ${String(error)}`);
  return error;
}

describe('the outbound guard at connect time', () => {
  it('refuses the test server on 127.0.0.1 by default: no request reaches it', async () => {
    const before = target.seen.length;
    const error = await refusal(run({ baseUrl: target.url }));
    expect(error.code).toBe('TARGET_REFUSED');
    expect(error.message).toMatch(/127\.0\.0\.1 is a loopback address.*an administrator can allow/);
    expect(target.seen.length).toBe(before);
  });

  it('reaches it once an administrator allowed 127.0.0.1:port, and only that port', async () => {
    const { rows } = await run({ baseUrl: `${target.url}/x`, allowedHosts: [`127.0.0.1:${target.port}`] });
    expect(rows).toEqual([{ path: '/x' }]);
    const error = await refusal(run({ baseUrl: other.url, allowedHosts: [`127.0.0.1:${target.port}`] }));
    expect(error.code).toBe('TARGET_REFUSED');
  });

  it.each(['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001', '[::ffff:127.0.0.1]'])(
    'refuses the server written as %s, and reaches it when that host is allowed',
    async (host) => {
      const before = target.seen.length;
      const baseUrl = `http://${host}:${target.port}/form`;
      expect((await refusal(run({ baseUrl }))).code).toBe('TARGET_REFUSED');
      expect(target.seen.length).toBe(before);
      const allowed = await run({ baseUrl, allowedHosts: [`${host}:${target.port}`] });
      expect(allowed.rows).toEqual([{ path: '/form' }]);
    },
  );

  it('refuses at connect time a name that answered a public address first and 127.0.0.1 next (DNS rebinding)', async () => {
    const answers: string[] = [];
    const rebinding: Resolver = async () => {
      const address = answers.length === 0 ? '93.184.216.34' : '127.0.0.1';
      answers.push(address);
      return [{ address, family: 4 }];
    };
    const before = target.seen.length;
    const error = await refusal(run({ baseUrl: `http://rebind.test:${target.port}` }, {}, rebinding));
    expect(error.code).toBe('TARGET_REFUSED');
    expect(error.message).toMatch(/rebind\.test resolves to a loopback address/);
    // The check before the request saw the public address; the connect-time lookup saw 127.0.0.1 and refused it.
    expect(answers).toEqual(['93.184.216.34', '127.0.0.1']);
    expect(target.seen.length).toBe(before);
  });

  it('connects to the name when allowed, through the injected resolver', async () => {
    const local: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const { rows, exchanges } = await run(
      { baseUrl: `http://api.test:${target.port}/named`, allowedHosts: ['api.test'] },
      {},
      local,
    );
    expect(rows).toEqual([{ path: '/named' }]);
    expect(exchanges[0]?.timings.connectMs).toBeGreaterThanOrEqual(0);
    expect(exchanges[0]?.timings.dnsMs).toBeGreaterThanOrEqual(0);
  });

  it('re-checks every redirect: internal hosts, other ports, numeric forms, metadata and other schemes are refused', async () => {
    const locations: Record<string, string> = {
      '/to-localhost': `http://localhost:${other.port}/`,
      '/to-other-port': `http://127.0.0.1:${other.port}/`,
      '/to-decimal': `http://2130706433:${other.port}/`,
      '/to-mapped': `http://[::ffff:7f00:1]:${other.port}/`,
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
      '/to-file': 'file:///etc/passwd',
      '/to-gopher': `gopher://127.0.0.1:${other.port}/_x`,
    };
    target.handle((request, response) => {
      const location = locations[request.url];
      if (location) response.writeHead(302, { location }).end();
      else json(response, [{ path: request.url }]);
    });
    const before = other.seen.length;
    for (const path of Object.keys(locations)) {
      const error = await refusal(run({ baseUrl: target.url, allowedHosts: [`127.0.0.1:${target.port}`] }, { path }));
      expect(error.code, path).toBe('TARGET_REFUSED');
    }
    expect(other.seen.length).toBe(before);
  });

  it('stops a redirect loop after 5 redirects', async () => {
    target.handle((request, response) => {
      const n = Number(/\d+/.exec(request.url)?.[0] ?? 0);
      response.writeHead(307, { location: `/loop/${n + 1}` }).end();
    });
    const before = target.seen.length;
    const error = await refusal(
      run({ baseUrl: target.url, allowedHosts: [`127.0.0.1:${target.port}`] }, { path: '/loop/0' }),
    );
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.message).toBe('The web API redirected more than 5 times');
    expect(target.seen.length - before).toBe(6);
  });

  it('guards the OAuth2 token request too', async () => {
    target.handle((request, response) => json(response, [{ path: request.url }]));
    const before = other.seen.length;
    const error = await refusal(
      run(
        {
          baseUrl: target.url,
          allowedHosts: [`127.0.0.1:${target.port}`],
          credentials: [{ id: 'o', kind: 'oauth2', tokenUrl: `${other.url}/token`, clientId: 'c', clientSecret: 's' }],
        },
        { credential: 'o' },
      ),
    );
    expect(error.code).toBe('TARGET_REFUSED');
    expect(other.seen.length).toBe(before);
  });
});
