import { describe, expect, it } from 'vitest';
import { WriteCount } from './sqlite-dialect.ts';

describe('the embedded store write count', () => {
  it('counts every statement that may change what a query reads, not reads, transaction control or recording', () => {
    const counted = [
      'update "data_sources" set "version" = ? where "id" = ?',
      'insert into "connections" ("name") values (?) returning "id"',
      'delete from "parameters" where "data_source_id" = ?',
      'with x as (select 1) update "collections" set "name" = ?',
      'create table t (a int)',
      'PRAGMA foreign_keys = OFF',
    ];
    const notCounted = [
      'select "version" from "data_sources" where "uid" = ?',
      '  SELECT 1',
      'begin',
      'commit',
      'rollback',
      'savepoint a',
      'release a',
      'insert into usage_records (user_id) values (?)',
      'insert into "application_logs" ("level") values (?)',
      'insert into usage_hourly (bucket) values (?) on conflict do update set calls = calls + excluded.calls',
      'delete from "application_logs" where "id" < ?',
    ];
    for (const sql of counted) expect(WriteCount.counts(sql), sql).toBe(true);
    for (const sql of notCounted) expect(WriteCount.counts(sql), sql).toBe(false);
  });
});
