import type { CollectionFinders } from '../modules/access/route-access.ts';
import { findCollection, findCollectionOfAsset } from '../modules/collections/service.ts';
import { findCollectionOfConnection, findCollectionOfParameter } from '../modules/connections/ownership.service.ts';
import { findCollectionOfOwnDownload } from '../modules/downloads/ownership.service.ts';
import { findCollectionOfCredential, findCollectionOfWebApiConnection } from '../modules/web-api/ownership.service.ts';

// What the access module needs from the modules above it: how each kind of object a route names finds its
// collection (route-access.ts). app.ts hands this table to the app before any route is registered.

export const collectionFinders: CollectionFinders = {
  uid: findCollection,
  dataAsset: findCollectionOfAsset,
  connection: findCollectionOfConnection,
  parameter: findCollectionOfParameter,
  webApiConnection: findCollectionOfWebApiConnection,
  credential: findCollectionOfCredential,
  download: findCollectionOfOwnDownload,
};
