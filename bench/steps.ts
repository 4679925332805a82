import { randomUUID } from 'node:crypto';
import { openSync, writeSync } from 'node:fs';
import { ServerResponse, IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import pino from 'pino';
import { getCurrentUser } from '@datalab/contract/api/account';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { BatchedDestination } from '../apps/server/src/lib/log-destination.ts';
import { loggingOptions } from '../apps/server/src/lib/request-log.ts';
import { VerifiedTokens } from '../apps/server/src/lib/verified-tokens.ts';
import { injectClient } from '../apps/server/test/support/http.ts';
import { signIn } from '../apps/server/test/support/sign-in.ts';
import { intOption } from './lib/options.ts';
import { removeScratchDir, scratchDir } from './lib/processes.ts';
import { median, print, printTable, round } from './lib/stats.ts';
import type { Bench, BenchOptions, BenchResult } from './lib/types.ts';

// Investigation (only when named): the CPU each step of an authenticated GetCurrentUser costs, in
// µs per call, measured in this process on the app built exactly as the server builds it (embedded
// store, LOG_LEVEL=info, log lines through the real batched destination into /dev/null). Each step
// runs `--calls` times, five times over; the median is reported. The whole request over HTTP is
// measured by `current-user` (server CPU per request); these figures say where it goes.

const PUBLIC_URL = 'http://localhost:8080';
const URL_PATH = '/api/Account/GetCurrentUser';

/** CPU µs per call of `step`, median of five timed batches after one untimed. */
async function cpuPerCall(calls: number, step: (index: number) => unknown): Promise<number> {
  const batches: number[] = [];
  for (let batch = 0; batch < 6; batch += 1) {
    const before = process.cpuUsage();
    for (let index = 0; index < calls; index += 1) {
      const result = step(index);
      // app.inject answers a thenable, not a Promise.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') await result;
    }
    const used = process.cpuUsage(before);
    if (batch > 0) batches.push((used.user + used.system) / calls);
  }
  return round(median(batches), 3);
}

/** The security headers every reply carries: those the app sends that a bare Fastify reply does not. */
const BARE_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

function freshResponse(): ServerResponse {
  const request = new IncomingMessage(new Socket());
  request.method = 'GET';
  return new ServerResponse(request);
}

async function run(options: BenchOptions): Promise<BenchResult> {
  const calls = intOption(options, 'calls', 20_000, 1_000_000);
  const workDir = scratchDir('steps');
  const devNull = openSync('/dev/null', 'w');
  const destination = new BatchedDestination({ write: (chunk: Buffer) => writeSync(devNull, chunk) });
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: join(workDir, 'data'),
    PUBLIC_URL,
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: join(workDir, 'none'),
  });
  const app = await buildApp(config, { logDestination: destination });
  try {
    await app.ready();
    const { access_token: token } = await signIn(injectClient(app), {
      publicUrl: PUBLIC_URL,
      username: 'admin',
      password: 'datalab',
    });
    const authorization = `Bearer ${token}`;
    const reply = await app.inject({ method: 'GET', url: URL_PATH, headers: { authorization } });
    if (reply.statusCode !== 200) throw new Error(`GetCurrentUser answered ${reply.statusCode}: ${reply.body}`);
    const body: unknown = reply.json();
    const securityHeaders = Object.entries(reply.headers).filter(
      ([name]) => !BARE_HEADERS.has(name) && name !== 'x-request-id',
    );

    const tokens = new VerifiedTokens(10_000);
    tokens.set(token, 1, Date.now() + 3_600_000);
    // Keyed by the whole token: what a lookup costs when every character of a new header string is hashed.
    const wholeTokenKeys = new Map<string, number>([[token, 1]]);
    // A fresh header string per call, as the HTTP parser hands over (a string's hash is cached in it).
    const headers = Array.from({ length: 1024 }, () => Buffer.from(authorization).toString('latin1'));
    const serialize = serializerCompiler({
      schema: getCurrentUser.response,
      method: 'GET',
      url: URL_PATH,
      httpStatus: '200',
    });
    const { logController } = loggingOptions(config, destination);
    // The previous set-up, for comparison: Fastify's own line through pino's buffered destination.
    const previousLogger = pino(
      {
        level: 'info',
        redact: {
          paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
          remove: true,
        },
      },
      pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 }),
    );
    const user = await app.authenticate({
      headers: { authorization },
      user: null,
      log: app.log,
    } as unknown as FastifyRequest);

    const steps: [string, (index: number) => unknown][] = [
      ['request id (randomUUID)', () => randomUUID()],
      [
        'security headers (set on the raw reply)',
        () => {
          const response = freshResponse();
          for (const [name, value] of securityHeaders) response.setHeader(name, value as string);
        },
      ],
      ['  fresh raw reply alone (subtract)', () => freshResponse()],
      ['token check (header → verified token → user id)', (index) => tokens.userOfBearer(headers[index % 1024])],
      [
        '  the same, keyed by the whole token after the header regex (before)',
        (index) => wholeTokenKeys.get(/^Bearer\s+([A-Za-z0-9\-._~+/]+=*)$/i.exec(headers[index % 1024]!)![1]!),
      ],
      [
        'authenticate (token check + user and access lookup)',
        (index) =>
          app.authenticate({
            headers: { authorization: headers[index % 1024] },
            user: null,
            log: app.log,
          } as unknown as FastifyRequest),
      ],
      ['reply serialization (zod response schema + JSON)', () => serialize(body)],
      [
        'request log line (child logger + line + batched write)',
        () => {
          const log = app.log.child({ reqId: randomUUID() });
          const request = { method: 'GET', url: URL_PATH, ip: '127.0.0.1', user, log } as unknown as FastifyRequest;
          logController.requestCompleted(null, request, {
            statusCode: 200,
            elapsedTime: 0.8123,
            log,
          } as unknown as FastifyReply);
        },
      ],
      [
        "  the line before (Fastify's, via pino.destination minLength 4096)",
        () => {
          previousLogger
            .child({ reqId: randomUUID() })
            .info({ res: { statusCode: 200 }, responseTime: 0.8123 }, 'request completed');
        },
      ],
    ];
    const figures: { step: string; microseconds: number }[] = [];
    for (const [step, fn] of steps) figures.push({ step, microseconds: await cpuPerCall(calls, fn) });
    printTable(
      'CPU per call, µs (median of 5 batches)',
      ['step', 'µs'],
      figures.map((f) => [f.step, f.microseconds]),
    );
    print(`security headers: ${securityHeaders.map(([name]) => name).join(', ')}`);
    return {
      name: 'steps',
      verdicts: [],
      notes: figures.map((f) => `${f.step}: ${f.microseconds} µs`),
      data: { calls, figures, securityHeaders: securityHeaders.map(([name]) => name) },
    };
  } finally {
    await app.close();
    removeScratchDir(workDir);
  }
}

export const steps: Bench = { name: 'steps', onlyWhenNamed: true, run };
