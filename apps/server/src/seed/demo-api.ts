import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

// The demo's sample Web API, served by the server itself under /demo-api/v1 and only when the demo is on:
// yearly indicators of the shop's countries (population, GDP, inflation, the currency's rate to the euro), made up
// deterministically from the country code, paged with `page`/`pageSize` and a `links.next` URL. It wants an API key
// in X-Api-Key: the demo's Web API connection holds it as a credential (sealed), derived from ENCRYPTION_KEY so it
// differs per installation and needs no storage. Not under /api or /data: it takes no Data Lab sign-in.

export const DEMO_API_PREFIX = '/demo-api/v1';
export const DEMO_API_KEY_HEADER = 'X-Api-Key';
const FIRST_YEAR = 2000;
const LAST_YEAR = 2025;
const MAX_PAGE_SIZE = 100;

/** The country codes the shop database has (seed/shop-database.ts) and their currencies. */
const CURRENCIES: Record<string, string> = {
  DE: 'EUR',
  FR: 'EUR',
  NL: 'EUR',
  ES: 'EUR',
  SE: 'SEK',
  US: 'USD',
  CA: 'CAD',
  MX: 'MXN',
  JP: 'JPY',
  AU: 'AUD',
  SG: 'SGD',
  IN: 'INR',
  BR: 'BRL',
  AR: 'ARS',
  CL: 'CLP',
};

/** The demo API's key for this installation (what the demo connection's credential holds). */
export function demoApiKey(config: Pick<Config, 'encryptionKey'>): string {
  const key = config.encryptionKey ?? Buffer.from('datalab-demo');
  return `demo_${createHmac('sha256', key).update('datalab demo api key').digest('base64url').slice(0, 32)}`;
}

/** A number from 0 to 1, the same for the same text. */
function unit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 0xffffffff;
}

export interface Indicator {
  year: number;
  population: number;
  gdpUsdBn: number;
  inflationPct: number;
  currency: string;
  eurRate: number;
}

export function indicators(code: string): Indicator[] {
  const base = 5 + unit(`${code}:population`) * 120; // millions
  const growth = 0.002 + unit(`${code}:growth`) * 0.02;
  const gdpPerHead = 3_000 + unit(`${code}:gdp`) * 55_000; // USD
  const rate = CURRENCIES[code] === 'EUR' ? 1 : 0.5 + unit(`${code}:rate`) * 120;
  const rows: Indicator[] = [];
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) {
    const t = year - FIRST_YEAR;
    const population = Math.round(base * 1_000_000 * (1 + growth) ** t);
    const perHead = gdpPerHead * (1 + 0.015 + unit(`${code}:${year}:g`) * 0.03) ** t;
    rows.push({
      year,
      population,
      gdpUsdBn: Math.round((population * perHead) / 1e8) / 10,
      inflationPct: Math.round((0.5 + unit(`${code}:${year}:i`) * 6) * 10) / 10,
      currency: CURRENCIES[code] ?? 'USD',
      eurRate: Math.round(rate * (0.9 + unit(`${code}:${year}:r`) * 0.2) * 10_000) / 10_000,
    });
  }
  return rows;
}

function keyAccepted(request: FastifyRequest, expected: string): boolean {
  const given = request.headers[DEMO_API_KEY_HEADER.toLowerCase()];
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const positive = (value: unknown, fallback: number) => {
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : fallback;
  return n >= 1 ? n : fallback;
};

/** Mounts the sample API (the demo only). */
export default async function demoApiRoutes(app: FastifyInstance) {
  const expected = demoApiKey(app.config);
  const options = { schema: { hide: true } };
  const refuse = (reply: FastifyReply) =>
    reply.code(401).send({ error: 'unauthorized', message: `Send the demo API key in ${DEMO_API_KEY_HEADER}` });

  app.get(DEMO_API_PREFIX, options, async () => ({
    name: 'Data Lab demo API',
    description: 'Yearly indicators of the sample shop’s countries (made-up figures)',
    endpoints: [`${DEMO_API_PREFIX}/countries`, `${DEMO_API_PREFIX}/countries/{code}/indicators?from=&page=&pageSize=`],
  }));

  app.get(`${DEMO_API_PREFIX}/countries`, options, async (request, reply) => {
    if (!keyAccepted(request, expected)) return refuse(reply);
    return { data: Object.entries(CURRENCIES).map(([code, currency]) => ({ code, currency })) };
  });

  app.get(`${DEMO_API_PREFIX}/countries/:code/indicators`, options, async (request, reply) => {
    if (!keyAccepted(request, expected)) return refuse(reply);
    const { code } = request.params as { code: string };
    if (!Object.hasOwn(CURRENCIES, code)) {
      return reply.code(404).send({ error: 'not_found', message: `No country ${code.slice(0, 10)}` });
    }
    const query = request.query as Record<string, unknown>;
    const from = positive(query['from'], FIRST_YEAR);
    const page = positive(query['page'], 1);
    const pageSize = Math.min(positive(query['pageSize'], 10), MAX_PAGE_SIZE);
    const all = indicators(code).filter((row) => row.year >= from);
    const data = all.slice((page - 1) * pageSize, page * pageSize);
    const totalPages = Math.max(1, Math.ceil(all.length / pageSize));
    const next =
      page < totalPages
        ? `${DEMO_API_PREFIX}/countries/${code}/indicators?from=${from}&page=${page + 1}&pageSize=${pageSize}`
        : null;
    return { data, page, pageSize, totalPages, links: { next } };
  });
}
