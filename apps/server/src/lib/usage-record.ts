// What a call reports for usage (product §15 "Usage"), and the recorder services hand it to; plugins/usage.ts
// implements the recorder (batched, off the request path) and registers it as `app.usage`.

export interface UsageRecord {
  userId: number | null;
  tokenId?: number | null;
  dataSourceId: number | null;
  dataSourceUid: string;
  /** The data asset's name when the call got as far as its definition (the call's log record names it). */
  dataSourceName?: string | null;
  collectionId: number | null;
  /**
   * 'data-api': a call of the calling layer (the portal's call screens use it too); 'mcp': a tool call of the MCP
   * endpoint; 'download': a download job.
   */
  channel: 'data-api' | 'mcp' | 'download';
  /** The MCP client that made the call, as its clientInfo names it ("name/version"). */
  client?: string;
  format: string;
  status: number;
  durationMs: number;
  rows: number;
  bytes: number;
  cacheHit: boolean;
  requestId: string | null;
  at?: Date;
}

export interface UsageRecorder {
  /** Keeps `entry` until its batch is written: pass an object of the call's own, not changed afterwards. */
  record(entry: UsageRecord): void;
  /** Writes what is buffered now, records and then rollups (tests, shutdown). */
  flush(): Promise<void>;
}
