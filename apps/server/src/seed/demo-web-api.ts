import type { FastifyInstance } from 'fastify';
import { parameterDefinitionSchema } from '@datalab/contract/parameters';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { DEMO_SEED_LOCK, lockFor } from '../db/locks.ts';
import { newUid } from '../modules/collections/service.ts';
import { DEMO_API_KEY_HEADER, DEMO_API_PREFIX, demoApiKey } from './demo-api.ts';

// The demo's Web API side: a connection "Demo API" in Sales to the sample API this server serves
// (demo-api.ts) with an API-key credential, its loopback host allowed on that connection only (the outbound guard
// refuses the server's own address otherwise); and the asset "Country indicators", whose region → country
// parameters come from the shop's SQL assets Regions and Countries by region (dependent dropdowns), paged through
// the API's next links, with a transformation. Seeded once, like the rest of the demo. The server's address can
// change between starts (PORT): while the connection still has the address the seed gave it, it follows.

const SEEDED_KEY = 'demo.webApi.seeded';
export const DEMO_WEB_API_CONNECTION = 'Demo API';
export const DEMO_WEB_API_ASSET = 'Country indicators';

interface Seeded {
  connectionId: number;
  baseUrl: string;
  allowedHosts: string[];
}

/** Where this server answers on this machine, as the demo connection reaches it. */
export function demoApiAddress(config: Pick<Config, 'host' | 'port'>): { baseUrl: string; allowedHosts: string[] } {
  const any = config.host === '' || config.host === '0.0.0.0' || config.host === '::';
  const host = any ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return { baseUrl: `http://${host}:${config.port}${DEMO_API_PREFIX}`, allowedHosts: [`${host}:${config.port}`] };
}

const request = {
  method: 'GET',
  path: '/countries/{country}/indicators',
  query: { from: '{fromYear}', pageSize: '10' },
  headers: {},
  rowsPath: 'data',
  paging: { kind: 'next', path: 'links.next' },
};

function parameters(regionsId: number, countriesId: number) {
  return [
    {
      name: 'region',
      label: 'Region',
      type: 'integer',
      required: true,
      allowedValues: { kind: 'dataSource', dataSourceId: regionsId, valueColumn: 'id', labelColumn: 'name' },
    },
    {
      name: 'country',
      label: 'Country',
      type: 'string',
      required: true,
      allowedValues: {
        kind: 'dataSource',
        dataSourceId: countriesId,
        valueColumn: 'code',
        labelColumn: 'name',
        dependsOn: ['region'],
      },
    },
    { name: 'fromYear', label: 'From year', type: 'integer', min: 2000, max: 2025, default: 2010 },
  ];
}

const transformation = {
  name: 'Presentation',
  rules: [
    { type: 'computed', name: 'gdpPerPersonUsd', expression: 'round(gdpUsdBn * 1000000000 / population, 0)' },
    { type: 'rename', from: 'gdpUsdBn', to: 'gdpUsdBillions' },
    { type: 'sort', by: [{ column: 'year', direction: 'desc' }] },
  ],
};

async function assetId(db: Database, collectionId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('data_sources')
    .select('id')
    .where('collection_id', '=', collectionId)
    .where('name', '=', name)
    .where('kind', '=', 'sql')
    .executeTakeFirst();
  return row?.id;
}

async function seedOnce(app: FastifyInstance, trx: Database): Promise<Seeded | undefined> {
  const sales = await trx.selectFrom('collections').select('id').where('name_key', '=', 'sales').executeTakeFirst();
  if (!sales) return undefined; // deleted by someone: nothing to add to
  const [regionsId, countriesId] = await Promise.all([
    assetId(trx, sales.id, 'Regions'),
    assetId(trx, sales.id, 'Countries by region'),
  ]);
  if (regionsId === undefined || countriesId === undefined) return undefined;
  const at = new Date().toISOString();
  const stamps = { created_at: at, updated_at: at };
  const address = demoApiAddress(app.config);
  const { id: connectionId } = await trx
    .insertInto('connections')
    .values({
      collection_id: sales.id,
      name: DEMO_WEB_API_CONNECTION,
      name_key: DEMO_WEB_API_CONNECTION.toLowerCase(),
      description: 'The sample Web API this server serves for the demo (yearly country indicators, made up)',
      kind: 'webapi',
      base_url: address.baseUrl,
      allowed_hosts: JSON.stringify(address.allowedHosts),
      retries: 1,
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: credentialId } = await trx
    .insertInto('web_api_credentials')
    .values({
      connection_id: connectionId,
      name: 'Demo key',
      name_key: 'demo key',
      kind: 'api-key',
      settings: JSON.stringify({ in: 'header', name: DEMO_API_KEY_HEADER }),
      secret: app.sqlRuntime.box.seal(demoApiKey(app.config)),
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await trx
    .insertInto('data_sources')
    .values({
      uid: newUid(),
      collection_id: sales.id,
      connection_id: connectionId,
      credential_id: credentialId,
      name: DEMO_WEB_API_ASSET,
      description: 'Population, GDP, inflation and the euro rate of one country per year, from the demo Web API.',
      kind: 'webapi',
      request_definition: JSON.stringify(request),
      cache_ttl_seconds: 60,
      mcp_available: 1,
      ...stamps,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, definition] of parameters(regionsId, countriesId).entries()) {
    await trx
      .insertInto('parameters')
      .values({
        data_source_id: id,
        position,
        name: definition.name,
        // As a save stores it (defaults filled): an unchanged save leaves the text as it is.
        definition: JSON.stringify(parameterDefinitionSchema.parse(definition)),
        ...stamps,
      })
      .execute();
  }
  const { id: transformationId } = await trx
    .insertInto('transformations')
    .values({ data_source_id: id, position: 0, name: transformation.name, ...stamps })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, rule] of transformation.rules.entries()) {
    await trx
      .insertInto('transformation_rules')
      .values({ transformation_id: transformationId, position, rule: JSON.stringify(rule), ...stamps })
      .execute();
  }
  return { connectionId, ...address };
}

/** The seeded connection follows the server's address while nobody has changed what the seed gave it. */
async function followAddress(app: FastifyInstance, trx: Database, seeded: Seeded) {
  const address = demoApiAddress(app.config);
  if (address.baseUrl === seeded.baseUrl) return;
  const connection = await trx
    .selectFrom('connections')
    .select(['base_url', 'allowed_hosts'])
    .where('id', '=', seeded.connectionId)
    .executeTakeFirst();
  if (
    !connection ||
    connection.base_url !== seeded.baseUrl ||
    connection.allowed_hosts !== JSON.stringify(seeded.allowedHosts)
  )
    return;
  await trx
    .updateTable('connections')
    .set({
      base_url: address.baseUrl,
      allowed_hosts: JSON.stringify(address.allowedHosts),
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', seeded.connectionId)
    .execute();
  await trx
    .updateTable('app_state')
    .set({ value: JSON.stringify({ connectionId: seeded.connectionId, ...address }) })
    .where('key', '=', SEEDED_KEY)
    .execute();
}

/** Once, after the SQL demo assets: the demo Web API connection and asset; on later starts, the address. */
export async function seedDemoWebApi(app: FastifyInstance): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    await lockFor(trx, DEMO_SEED_LOCK);
    const row = await trx.selectFrom('app_state').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    if (row) {
      const seeded = JSON.parse(row.value) as Partial<Seeded>;
      if (typeof seeded.connectionId === 'number' && typeof seeded.baseUrl === 'string') {
        await followAddress(app, trx, {
          connectionId: seeded.connectionId,
          baseUrl: seeded.baseUrl,
          allowedHosts: seeded.allowedHosts ?? [],
        });
      }
      return;
    }
    const seeded = await seedOnce(app, trx);
    await trx
      .insertInto('app_state')
      .values({ key: SEEDED_KEY, value: JSON.stringify(seeded ?? { skipped: new Date().toISOString() }) })
      .execute();
  });
}
