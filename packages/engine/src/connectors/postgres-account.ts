import type { AccountFindings } from './account.ts';

// What a PostgreSQL account may do beyond reading (account.ts says why it matters). One statement, run in the
// connector's read-only transaction: the role's attributes, its memberships (direct or inherited) in the built-in
// and cloud roles that reach the server's files, programs or other sessions, and the first table, sequence and
// schema it may change or create in.

/** Roles whose members read or write server files, run programs, signal other sessions or act as administrators. */
export const POWERFUL_ROLES = [
  'pg_read_server_files',
  'pg_write_server_files',
  'pg_execute_server_program',
  'pg_signal_backend',
  'pg_signal_autovacuum_worker',
  'pg_write_all_data',
  'pg_checkpoint',
  'pg_create_subscription',
  'pg_use_reserved_connections',
  'rds_superuser',
  'azure_pg_admin',
  'cloudsqlsuperuser',
  'alloydbsuperuser',
];

const ATTRIBUTES: [keyof AccountRow, string][] = [
  ['rolsuper', 'it is a superuser (reads any file of the database server)'],
  ['rolcreaterole', 'it may create roles (CREATEROLE)'],
  ['rolcreatedb', 'it may create databases (CREATEDB)'],
  ['rolreplication', 'it may replicate (REPLICATION)'],
  ['rolbypassrls', 'it bypasses row-level security (BYPASSRLS)'],
];

export const POSTGRES_ACCOUNT_SQL = `
select r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolreplication, r.rolbypassrls,
  array(select b.rolname::text from pg_roles b
         where b.rolname = any($1::text[]) and pg_has_role(current_user, b.oid, 'MEMBER')
         order by b.rolname) as powerful,
  array(select b.rolname::text from pg_roles b
         where b.oid <> r.oid and pg_has_role(current_user, b.oid, 'MEMBER')
           and (b.rolsuper or b.rolcreaterole or b.rolcreatedb or b.rolreplication or b.rolbypassrls)
         order by b.rolname limit 3) as privileged_roles,
  has_database_privilege(current_database(), 'CREATE') as create_schemas,
  (select n.nspname::text from pg_namespace n
    where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
      and n.nspname not like 'pg\\_temp%' and has_schema_privilege(n.oid, 'CREATE')
    order by n.nspname limit 1) as create_in,
  (select c.relnamespace::regnamespace::text || '.' || c.relname from pg_class c
    where c.relkind in ('r', 'p', 'v', 'm', 'f')
      and c.relnamespace::regnamespace::text not in ('pg_catalog', 'information_schema')
      and (has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE')
           or has_any_column_privilege(c.oid, 'INSERT, UPDATE'))
    order by 1 limit 1) as writable,
  (select c.relnamespace::regnamespace::text || '.' || c.relname from pg_class c
    where c.relkind = 'S' and c.relnamespace::regnamespace::text not in ('pg_catalog', 'information_schema')
      and case when c.relkind = 'S' then has_sequence_privilege(c.oid, 'UPDATE') else false end
    order by 1 limit 1) as sequence
from pg_roles r where r.rolname = current_user`;

export interface AccountRow {
  rolsuper: boolean;
  rolcreaterole: boolean;
  rolcreatedb: boolean;
  rolreplication: boolean;
  rolbypassrls: boolean;
  powerful: string[];
  privileged_roles: string[];
  create_schemas: boolean;
  create_in: string | null;
  writable: string | null;
  sequence: string | null;
}

export function postgresFindings(row: AccountRow | undefined): AccountFindings {
  if (!row) return ['the account has no role of its own to inspect'];
  // A superuser may do anything (and is a member of every role): that says it all.
  if (row.rolsuper) return [ATTRIBUTES[0]![1]];
  const findings: AccountFindings = [];
  for (const [key, text] of ATTRIBUTES) if (row[key] === true) findings.push(text);
  {
    for (const role of row.powerful) findings.push(`it is a member of ${role}`);
    for (const role of row.privileged_roles) findings.push(`it may act as ${role}, which has administrator attributes`);
    if (row.writable) findings.push(`it may write to tables (for example ${row.writable})`);
    if (row.sequence) findings.push(`it may change sequences (for example ${row.sequence})`);
    if (row.create_in) findings.push(`it may create objects in schema ${row.create_in}`);
    if (row.create_schemas) findings.push('it may create schemas in the database');
  }
  return findings;
}
