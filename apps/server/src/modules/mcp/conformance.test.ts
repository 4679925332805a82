import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';

// The official MCP conformance suite (@modelcontextprotocol/conformance, `server` mode) against the real endpoint:
// the scenarios that apply to any server. The suite's client sends no credentials, so a relay on another loopback
// port adds a demo user's access token to each request and passes everything else (the Host and Origin headers
// included) as it is: the DNS-rebinding scenario reaches the server's own checks.

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const run = promisify(execFile);
const suiteBin = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);

/** Relays requests to `target`, adding the Authorization header. */
async function startRelay(target: URL, authorization: string): Promise<{ url: string; server: Server }> {
  const server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the relay has no port');
  return { url: `http://localhost:${address.port}/mcp`, server };
}

describe('MCP conformance (official suite, server mode)', () => {
  let t: TestApp;
  let relay: { url: string; server: Server };
  let output: string;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { MCP_ENABLED: 'true' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    relay = await startRelay(new URL(address), `Bearer ${await t.tokenFor('analyst')}`);
    output = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    relay?.server.close();
    await t?.close();
    if (output) rmSync(output, { recursive: true, force: true });
  });

  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const dir = join(output, scenario);
    const result = await run(
      process.execPath,
      [suiteBin, 'server', '--url', relay.url, '--scenario', scenario, '--output-dir', dir],
      { timeout: 60_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const checks = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('checks.json'))
      .flatMap(
        (file) =>
          JSON.parse(readFileSync(join(dir, file), 'utf8')) as { id: string; status: string; errorMessage?: string }[],
      );
    expect(checks.length, `${result.stdout ?? ''}${result.stderr ?? ''}`).toBeGreaterThan(0);
    const failed = checks.filter((check) => check.status !== 'SUCCESS' && check.status !== 'INFO');
    expect(failed, `${result.stdout ?? ''}`).toEqual([]);
    expect('code' in result ? result.code : 0).toBe(0);
  });
});
