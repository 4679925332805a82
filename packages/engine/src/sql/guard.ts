import { EngineError } from '../errors.ts';
import { type Dialect, codeText } from './scan.ts';

// A second line behind the read-only transaction: the statement must start like a read. Some things a read-only
// transaction does not stop — PostgreSQL's COPY ... TO PROGRAM or to a file, MySQL's SELECT ... INTO OUTFILE, DO
// blocks, SET — are refused here, before the database sees them.

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

export function assertReadStatement(sql: string, dialect: Dialect): void {
  const code = codeText(sql, dialect).replace(/^[\s(]+/, '');
  if (!readingStart[dialect].test(code)) {
    const word = /^[a-z_]*/i.exec(code)?.[0] ?? '';
    // A misspelt SELECT is a syntax error; any real statement that is not a read is a refused write.
    if (/^[a-z]+$/i.test(word) && !commandWords.has(word.toLowerCase())) {
      throw new EngineError('SYNTAX', `The query has a syntax error: it must start with SELECT, WITH or VALUES`);
    }
    throw new EngineError('WRITE_REFUSED', 'Only a reading statement (SELECT, WITH, VALUES, ...) is allowed');
  }
  if (dialect === 'mysql' && fileWrites.test(code)) throw new EngineError('WRITE_REFUSED');
}
