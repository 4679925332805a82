import type { ColumnType } from 'kysely';

// Column types both stores share: timestamps are ISO strings (SQLite has no timestamp type; PostgreSQL columns are
// text for the same reason), booleans are integers 0/1.

export type Timestamp = ColumnType<string, string, string>;
export type Flag = ColumnType<number, number | boolean, number | boolean>;
