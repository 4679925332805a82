import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { collectionObjects } from './matrix-objects.ts';

// The Web API part of the authorization matrix's world: a Web API connection in the target collection (its base
// URL a loopback port nobody allowed, so tests and Try answer at once with the guard's refusal), an API-key
// credential on it, and a Web API asset sending it; and makers of fresh ones for the rows that delete.

export interface WebApiFixture {
  connectionId: number;
  credentialId: number;
  assetUid: string;
}

export interface WebApiHelpers {
  freshConnection: () => Promise<number>;
  freshCredential: () => Promise<number>;
  freshAsset: () => Promise<string>;
}

export const MATRIX_BASE_URL = 'http://127.0.0.1:9/v1';
export const MATRIX_REQUEST = { method: 'GET', path: '/items', query: {}, headers: {}, rowsPath: 'data' };

export async function buildWebApiWorld(
  db: Database,
  box: SecretBox,
  collectionId: number,
  unique: () => string,
): Promise<{ fixture: WebApiFixture; helpers: WebApiHelpers }> {
  const objects = collectionObjects(db, collectionId);
  const { stamps } = objects;
  const freshConnection = () =>
    objects.connection({ name: `Web ${unique()}`, kind: 'webapi', base_url: MATRIX_BASE_URL, retries: 0 });
  const connectionId = await freshConnection();
  const freshCredential = async () => {
    const name = `Key ${unique()}`;
    return (
      await db
        .insertInto('web_api_credentials')
        .values({
          connection_id: connectionId,
          name,
          name_key: name.toLowerCase(),
          kind: 'api-key',
          settings: JSON.stringify({ in: 'header', name: 'X-Api-Key' }),
          secret: box.seal('matrix-key'),
          ...stamps,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  const credentialId = await freshCredential();
  const freshAsset = () => {
    const uid = `web-${unique()}`;
    return objects.asset({
      uid,
      connection_id: connectionId,
      credential_id: credentialId,
      name: `W ${uid}`,
      kind: 'webapi',
      request_definition: JSON.stringify(MATRIX_REQUEST),
    });
  };
  const assetUid = await freshAsset();
  return {
    fixture: { connectionId, credentialId, assetUid },
    helpers: { freshConnection, freshCredential, freshAsset },
  };
}
