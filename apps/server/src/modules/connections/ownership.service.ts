// The collection a connection or a parameter belongs to, for route declarations (access/route-access.ts).
// Ids are numbers; any other text finds nothing (a 404 like any unknown id).

export { findCollectionOfConnection, findCollectionOfParameter } from './repository.ts';
