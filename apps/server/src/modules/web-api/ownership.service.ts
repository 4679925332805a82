// The collection a Web API connection or one of its credentials belongs to, for route declarations
// (access/route-access.ts). Ids are numbers; any other text, or a SQL connection's id, finds nothing (a 404).

export { findCollectionOfCredential, findCollectionOfWebApiConnection } from './repository.ts';
