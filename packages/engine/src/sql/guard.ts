import { EngineError } from '../errors.ts';
import { type Dialect, codeText, codeWithNames } from './scan.ts';

// A second line behind the read-only transaction: the statement must start like a read. Some things a read-only
// transaction does not stop — PostgreSQL's COPY ... TO PROGRAM or to a file, MySQL's SELECT ... INTO OUTFILE, DO
// blocks, SET — are refused here, before the database sees them. So are the functions that read or write the
// database server's files, run programs, reach other servers or run SQL text out of this check's sight
// (pg_read_file, lo_import, dblink, LOAD_FILE, ...): an account that may only read cannot call most of them anyway
// (docs/operations.md, "Read-only database accounts"), and this refusal is defence in depth for one that can.

const readingStart: Record<Dialect, RegExp> = {
  postgres: /^(select|with|values|table|explain|show)\b/i,
  mysql: /^(select|with|values|table|explain|show|describe|desc)\b/i,
  sqlite: /^(select|with|values|explain)\b/i,
};

const commandWords = new Set(
  `insert update delete merge upsert replace create drop alter truncate rename comment grant revoke copy do call
   set reset load attach detach pragma vacuum analyze analyse lock unlock begin start commit rollback end abort
   savepoint release prepare execute deallocate declare fetch move close listen notify unlisten refresh cluster
   reindex checkpoint discard reassign security import handler flush kill install uninstall use optimize repair
   checksum backup restore xa purge change shutdown`.split(/\s+/),
);

const fileWrites = /\binto\s+(outfile|dumpfile)\b/i;

/**
 * Functions no data source may call, by dialect: a name followed by `(` (after any schema prefix, comment or
 * quoting). PostgreSQL: server files (pg_read_file, pg_ls_dir, pg_stat_file, adminpack's pg_file_*), large objects
 * (lo_import/lo_export and every other lo_* or lo* call), other servers (dblink*), server control
 * (pg_terminate_backend, pg_reload_conf, ...) and functions that run SQL given as text (query_to_xml, ...). MariaDB/MySQL: LOAD_FILE and user-defined program runners (sys_exec,
 * sys_eval, ...). SQLite: extensions and the shell's file functions.
 */
const refusedFunctions: Record<Dialect, RegExp> = {
  postgres: new RegExp(
    '\\b(' +
      [
        'pg_read_file',
        'pg_read_binary_file',
        'pg_ls_[a-z_]*',
        'pg_stat_file',
        'pg_file_[a-z_]*',
        'pg_logdir_ls',
        'lo_[a-z0-9_]*',
        'lo(?:creat|create|open|close|read|write|seek|seek64|tell|tell64|truncate|truncate64|unlink)',
        'dblink[a-z_]*',
        'pg_terminate_backend',
        'pg_cancel_backend',
        'pg_reload_conf',
        'pg_rotate_logfile',
        'pg_promote',
        'pg_switch_wal',
        'pg_create_restore_point',
        'pg_backup_start',
        'pg_backup_stop',
        'pg_start_backup',
        'pg_stop_backup',
        'pg_import_system_collations',
        'pg_replication_[a-z_]*',
        'pg_create_[a-z_]*_replication_slot',
        'pg_drop_replication_slot',
        'pg_logical_[a-z_]*',
        'query_to_xml[a-z_]*',
        'query_to_xmlschema',
        'cursor_to_xml[a-z_]*',
        'table_to_xml[a-z_]*',
        'schema_to_xml[a-z_]*',
        'database_to_xml[a-z_]*',
      ].join('|') +
      ')\\s*\\(',
    'i',
  ),
  mysql: /\b(load_file|sys_exec|sys_eval|sys_get|sys_set|sys_bineval|lib_mysqludf_[a-z_]*)\s*\(/i,
  sqlite: /\b(load_extension|readfile|writefile|edit|fts3_tokenizer)\s*\(/i,
};

/** `COPY ... PROGRAM` or `COPY ... TO/FROM 'file'`: named in the refusal, since it runs programs or touches files. */
const copyOutside = /^copy\b[\s\S]*\b(program|to|from)\b/i;

export const REFUSED_FUNCTION = (name: string) =>
  `The query calls ${name}(), which reads or changes files, programs or other servers; data sources may not call ` +
  'it (see "Read-only database accounts" in docs/operations.md)';

export function assertReadStatement(sql: string, dialect: Dialect): void {
  const code = codeText(sql, dialect).replace(/^[\s(]+/, '');
  if (!readingStart[dialect].test(code)) {
    const word = /^[a-z_]*/i.exec(code)?.[0] ?? '';
    // A misspelt SELECT is a syntax error; any real statement that is not a read is a refused write.
    if (/^[a-z]+$/i.test(word) && !commandWords.has(word.toLowerCase())) {
      throw new EngineError('SYNTAX', `The query has a syntax error: it must start with SELECT, WITH or VALUES`);
    }
    if (dialect === 'postgres' && copyOutside.test(code)) {
      throw new EngineError(
        'WRITE_REFUSED',
        'COPY is not allowed: it can run programs and read or write files of the database server; write a SELECT',
      );
    }
    throw new EngineError('WRITE_REFUSED', 'Only a reading statement (SELECT, WITH, VALUES, ...) is allowed');
  }
  if (dialect === 'mysql' && fileWrites.test(code)) {
    throw new EngineError(
      'WRITE_REFUSED',
      'INTO OUTFILE and INTO DUMPFILE are not allowed: they write files on the database server',
    );
  }
  // U&"..." spells a name in escapes (U&"lo\005fimport"), out of the name check's sight.
  if (dialect === 'postgres' && /\bu&\s/i.test(code)) {
    throw new EngineError(
      'WRITE_REFUSED',
      'Unicode-escaped names and strings (U&"...") are not allowed: write them plainly',
    );
  }
  const called = refusedFunctions[dialect].exec(codeWithNames(sql, dialect));
  if (called) throw new EngineError('WRITE_REFUSED', REFUSED_FUNCTION(called[1]!.toLowerCase()));
}
