// The details of a call's log record (category 'call', one per call: modules/reporting/usage-rows.ts), stored as a JSON
// array of values behind a tag rather than as an object: the field names are most of an object's text, and every call
// writes one, so the array keeps the log table, its pages written at each commit and the WAL about 40 % smaller
// (docs/decisions.md 121). A record's reply shows the object (expandCallDetails); older records hold the object itself
// and are shown as they are.

const TAG = 'call/1';

export interface CallDetails {
  channel: string;
  dataAsset: { uid: string; name: string | null; id: number | null };
  collectionId: number | null;
  tokenId: number | null;
  format: string;
  status: number;
  rows: number;
  bytes: number;
  durationMs: number;
  cacheHit: boolean;
  /** The MCP client of an MCP tool call (its clientInfo: "name/version"); stored as a last element when known. */
  client?: string;
}

/** The stored text of a call's details. */
export function encodeCallDetails(details: CallDetails): string {
  const { channel, dataAsset, collectionId, tokenId, format, status, rows, bytes, durationMs, cacheHit } = details;
  const client = details.client === undefined ? [] : [details.client];
  return JSON.stringify([
    TAG,
    channel,
    dataAsset.uid,
    dataAsset.name,
    dataAsset.id,
    collectionId,
    tokenId,
    format,
    status,
    rows,
    bytes,
    durationMs,
    cacheHit ? 1 : 0,
    ...client,
  ]);
}

/** The details object of a stored array written by encodeCallDetails; undefined for any other value. */
export function expandCallDetails(stored: unknown): CallDetails | undefined {
  if (!Array.isArray(stored) || (stored.length !== 13 && stored.length !== 14) || stored[0] !== TAG) return undefined;
  const [, channel, uid, name, id, collectionId, tokenId, format, status, rows, bytes, durationMs, cacheHit] =
    stored as [string, string, string, string | null, number | null, number | null, number | null, string, ...number[]];
  const client = stored[13] as unknown;
  return {
    channel,
    dataAsset: { uid, name, id },
    collectionId,
    tokenId,
    format,
    status: status!,
    rows: rows!,
    bytes: bytes!,
    durationMs: durationMs!,
    cacheHit: cacheHit === 1,
    ...(typeof client === 'string' ? { client } : {}),
  };
}
