import {
  LOG_LIST_MESSAGE_MAX,
  logLevel,
  type ApplicationLogItem,
  type ApplicationLogRecord,
} from '@datalab/contract/api/application-logs';
import type { ApplicationLog } from '../../db/schema.ts';
import { expandCallDetails } from './call-details.ts';

// Shapes application-log replies: a table row (the message cut to a prefix) and one whole record.

interface UserColumns {
  user_id: number | null;
  user_name: string | null;
  user_username: string | null;
}

type ListRow = Pick<ApplicationLog, 'id' | 'created_at' | 'level' | 'category' | 'message' | 'request_id'> &
  UserColumns;

function presentUser(row: UserColumns): ApplicationLogItem['user'] {
  if (row.user_id === null) return null;
  // A record outlives its user's row only if the store lost it; the id still says who it was.
  return { id: row.user_id, name: row.user_name ?? `User ${row.user_id}`, username: row.user_username };
}

export function presentLogItem(row: ListRow): ApplicationLogItem {
  const isTruncated = row.message.length > LOG_LIST_MESSAGE_MAX;
  return {
    id: row.id,
    createdAt: new Date(row.created_at),
    level: logLevel.catch('info').parse(row.level),
    category: row.category,
    message: isTruncated ? row.message.slice(0, LOG_LIST_MESSAGE_MAX) : row.message,
    messageTruncated: isTruncated,
    requestId: row.request_id,
    user: presentUser(row),
  };
}

function parseDetails(details: string | null): Record<string, unknown> | null {
  if (details === null) return null;
  try {
    const parsed: unknown = JSON.parse(details);
    const call = expandCallDetails(parsed);
    if (call) return { ...call };
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { text: details };
  }
}

export function presentLogRecord(row: ApplicationLog & Omit<UserColumns, 'user_id'>): ApplicationLogRecord {
  return {
    ...presentLogItem(row),
    message: row.message,
    messageTruncated: false,
    details: parseDetails(row.details),
  };
}
