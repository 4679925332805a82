import {
  contentTypes,
  formats,
  openApiQueryParameters,
  parametersJsonSchema,
  type ParameterDefinition,
} from '@datalab/engine';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import type { Database } from '../../db/database.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { collectionsAllowing } from '../access/policy.ts';
import { parametersByAsset } from './parameters.service.ts';
import { findAssetsOfCollections } from './repository.ts';

// The calling layer's OpenAPI 3.1 document, per caller: exactly the assets they may call (the one policy decides,
// as for the call itself), each with its typed parameters — query parameters for GET, a JSON body for POST — and
// the formats it answers in. Postman and openapi-generator import it.

type Json = Record<string, unknown>;

export const DATA_API_PREFIX = '/data/v1';

interface Asset {
  id: number;
  uid: string;
  name: string;
  description: string;
  collectionName: string;
  parameters: ParameterDefinition[];
}

const resultSchema: Json = {
  type: 'object',
  required: ['columns', 'rows', 'truncated', 'durationMs', 'cached'],
  properties: {
    columns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'type'],
        properties: { name: { type: 'string' }, type: { type: 'string' } },
      },
    },
    rows: { type: 'array', items: { type: 'object', additionalProperties: true } },
    truncated: { type: 'boolean', description: 'More rows exist beyond the row cap; export CSV, NDJSON or XLSX.' },
    durationMs: { type: 'integer' },
    cached: { type: 'boolean', description: 'Served without a run of its own (the result cache).' },
  },
};

const problemSchema: Json = {
  type: 'object',
  required: ['title', 'status'],
  properties: {
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string' },
    detail: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    requestId: { type: 'string' },
  },
};

const problem = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const errorResponses = {
  '400': problem('A parameter value is not valid (errors by parameter), or the query was refused'),
  '401': problem('Missing or invalid access token'),
  '404': problem('No such data asset, or not one the caller may call'),
  '502': problem('The database could not be reached'),
  '503': problem('No free connection to the database; retry shortly'),
  '504': problem('The query ran over its time limit'),
};

const okResponse = {
  description: 'The result, in the format asked for (format= or Accept)',
  content: {
    [contentTypes.json]: { schema: { $ref: '#/components/schemas/Result' } },
    'text/csv': { schema: { type: 'string' } },
    'application/x-ndjson': { schema: { type: 'string' } },
    [contentTypes.xlsx]: { schema: { type: 'string', contentMediaType: contentTypes.xlsx } },
  },
};

const formatParameter = {
  name: 'format',
  in: 'query',
  required: false,
  description: 'The reply format; the Accept header is used when absent, then JSON',
  schema: { type: 'string', enum: [...formats] },
};

/** operationIds must be identifiers for code generators. */
const operationId = (method: string, uid: string) => `${method}_${uid.replace(/[^A-Za-z0-9_]/g, '_')}`;

function pathItem(asset: Asset): Json {
  const summary = `${asset.name} (${asset.collectionName})`;
  const common = { tags: [asset.collectionName], summary, description: asset.description || undefined };
  return {
    get: {
      ...common,
      operationId: operationId('get', asset.uid),
      parameters: [...openApiQueryParameters(asset.parameters).filter((p) => p['name'] !== 'format'), formatParameter],
      responses: { '200': okResponse, ...errorResponses },
    },
    post: {
      ...common,
      operationId: operationId('post', asset.uid),
      parameters: [formatParameter],
      requestBody: {
        required: false,
        content: { 'application/json': { schema: parametersJsonSchema(asset.parameters) } },
      },
      responses: { '200': okResponse, ...errorResponses },
    },
  };
}

export function openApiDocument(assets: Asset[], serverUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: `${PRODUCT_NAME} data API`,
      version: '1',
      description: 'The data assets you may call. Send your access token as a bearer token.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(assets.map((asset) => [`${DATA_API_PREFIX}/${asset.uid}`, pathItem(asset)])),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Result: resultSchema, Problem: problemSchema },
    },
  };
}

/** The assets the caller may call, with their parameters (stored definitions that no longer parse are left out). */
export async function callableAssets(db: Database, access: AccessModelCache, user: AuthUser): Promise<Asset[]> {
  const collectionIds = await collectionsAllowing(access, user, 'call');
  if (collectionIds.length === 0) return [];
  const rows = (await findAssetsOfCollections(db, collectionIds)).filter((row) => row.connection_id !== null);
  const byAsset = await parametersByAsset(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    name: row.name,
    description: row.description,
    collectionName: row.collection_name,
    parameters: byAsset.get(row.id) ?? [],
  }));
}
