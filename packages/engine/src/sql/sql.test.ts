import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { bindForCopy, bindNamed } from './bind.ts';
import { assertReadStatement } from './guard.ts';
import { detectParameters } from './scan.ts';

describe('detectParameters', () => {
  it('finds placeholders in order and skips literals, identifiers, comments, casts and dollar quotes', () => {
    const sql = `select ':nope', "col:x", $$ :dollar $$, $tag$ :tagged $tag$, x::int, E'it\\'s :esc'
      -- :comment
      /* :block /* :nested */ still */
      from t where a = :region and b = ANY(:ids) and c = :region`;
    expect(detectParameters(sql)).toEqual(['region', 'ids']);
  });

  it('knows MySQL backticks, # comments and backslash escapes', () => {
    expect(detectParameters("select `a:b`, 'x\\' :no' # :hash\n, :yes", 'mysql')).toEqual(['yes']);
  });

  it('knows SQLite [bracket] identifiers', () => {
    expect(detectParameters('select [a :b], :c', 'sqlite')).toEqual(['c']);
  });

  it('refuses a second statement but accepts a trailing semicolon and comment', () => {
    expect(detectParameters('select :a; -- done\n')).toEqual(['a']);
    expect(() => detectParameters('select 1; drop table x')).toThrow(EngineError);
    expect(() => detectParameters("select ';' ; select 2")).toThrowError(/one statement/);
    expect(detectParameters("select ';drop table x' as s")).toEqual([]);
  });

  it('refuses an unterminated string', () => {
    expect(() => detectParameters("select 'abc")).toThrowError(/unterminated/);
  });
});

describe('assertReadStatement', () => {
  it('lets reading statements through, whatever comments or parentheses come first', () => {
    for (const sql of [
      'select 1',
      ' (select 1) union (select 2)',
      '-- note\nWITH a AS (select 1) select * from a',
      'values (1)',
    ]) {
      expect(() => assertReadStatement(sql, 'postgres')).not.toThrow();
    }
    expect(() => assertReadStatement("select 'into outfile' as s", 'mysql')).not.toThrow();
  });

  it('refuses anything else before the database sees it', () => {
    const refused: [string, 'postgres' | 'mysql' | 'sqlite'][] = [
      ["copy (select 1) to program 'id'", 'postgres'],
      ['do $$ begin perform 1; end $$', 'postgres'],
      ['/* select */ insert into x values (1)', 'postgres'],
      ['set transaction read write', 'postgres'],
      ["select 1 into outfile '/tmp/x'", 'mysql'],
      ['load data infile "/etc/passwd" into table x', 'mysql'],
      ["attach database 'x' as y", 'sqlite'],
      ['pragma writable_schema = on', 'sqlite'],
    ];
    expect(() => assertReadStatement('selec 1', 'postgres')).toThrowError(expect.objectContaining({ code: 'SYNTAX' }));
    for (const [sql, dialect] of refused) {
      expect(() => assertReadStatement(sql, dialect), sql).toThrowError(
        expect.objectContaining({ code: 'WRITE_REFUSED' }),
      );
    }
  });
});

describe('refused functions', () => {
  it('refuses functions that read files, run programs or reach other servers, however they are written', () => {
    const refused: [string, 'postgres' | 'mysql' | 'sqlite', string][] = [
      ["select pg_read_file('/etc/passwd')", 'postgres', 'pg_read_file'],
      ["select pg_catalog.pg_read_binary_file('/etc/passwd')", 'postgres', 'pg_read_binary_file'],
      ['select "pg_read_file"(\'/etc/passwd\')', 'postgres', 'pg_read_file'],
      ["select lo_import('/etc/passwd')", 'postgres', 'lo_import'],
      ['select lo_get(16387)', 'postgres', 'lo_get'],
      ['select loread(lo_open(1, 262144), 10)', 'postgres', 'loread'],
      ["select * from pg_ls_dir('.')", 'postgres', 'pg_ls_dir'],
      ["select pg_stat_file /* x */ ('postgresql.conf')", 'postgres', 'pg_stat_file'],
      ["select * from dblink('host=x', 'select 1') as t(a int)", 'postgres', 'dblink'],
      ["select query_to_xml('select 1', true, true, '')", 'postgres', 'query_to_xml'],
      ["select LOAD_FILE('/etc/passwd')", 'mysql', 'load_file'],
      ["select `load_file`('/etc/passwd')", 'mysql', 'load_file'],
      ["select sys_exec('id')", 'mysql', 'sys_exec'],
      ["select load_extension('x')", 'sqlite', 'load_extension'],
    ];
    for (const [sql, dialect, name] of refused) {
      expect(() => assertReadStatement(sql, dialect), sql).toThrowError(
        expect.objectContaining({ code: 'WRITE_REFUSED', message: expect.stringContaining(`${name}()`) as string }),
      );
    }
  });

  it('refuses names spelt in Unicode escapes, which the name check cannot read', () => {
    expect(() => assertReadStatement('select U&"lo\\005fimport"(\'/etc/passwd\')', 'postgres')).toThrowError(
      /Unicode-escaped/,
    );
  });

  it('names what COPY and INTO OUTFILE would do', () => {
    expect(() => assertReadStatement("copy (select 1) to program 'id'", 'postgres')).toThrowError(/run programs/);
    expect(() => assertReadStatement("select 1 into dumpfile '/tmp/x'", 'mysql')).toThrowError(/write files/);
  });

  it('leaves the same words alone in strings, comments and other names', () => {
    for (const sql of [
      "select 'pg_read_file(1)' as s",
      '-- lo_import(x)\nselect 1',
      'select lower(name), log(2, 8), slo_import from t',
      'select 1 as "lo_import"',
    ]) {
      expect(() => assertReadStatement(sql, 'postgres'), sql).not.toThrow();
    }
    expect(() => assertReadStatement("select 'load_file(x)' as s", 'mysql')).not.toThrow();
  });
});

describe('bindNamed', () => {
  it('numbers PostgreSQL placeholders once per name and binds a list as one array', () => {
    const bound = bindNamed(
      'select * from t where a = :a and b = ANY(:ids) or a2 = :a',
      { a: 'x', ids: [1, 2] },
      'postgres',
    );
    expect(bound).toEqual({ sql: 'select * from t where a = $1 and b = ANY($2) or a2 = $1', values: ['x', [1, 2]] });
  });

  it('expands lists into ? placeholders for MySQL and SQLite, each element bound', () => {
    const bound = bindNamed(
      'select * from t where id in (:ids) and name = :name',
      { ids: [3, 4, 5], name: "'; DROP TABLE x; --" },
      'mysql',
    );
    expect(bound.sql).toBe('select * from t where id in (?, ?, ?) and name = ?');
    expect(bound.values).toEqual([3, 4, 5, "'; DROP TABLE x; --"]);
    expect(bindNamed('select 1 where 1 in (:ids)', { ids: [] }, 'sqlite').sql).toBe('select 1 where 1 in (NULL)');
  });

  it('refuses a placeholder that is not a defined parameter', () => {
    expect(() => bindNamed('select :missing', {}, 'postgres')).toThrowError(/not a defined parameter/);
  });

  it('keeps COPY values out of the text: set_config settings, read back by current_setting', () => {
    const statement = bindForCopy(
      'select * from t where region = :region and id = ANY(:ids) and d = :d',
      { region: "x'); drop table t; --", ids: [1, 2], d: null },
      { region: { type: 'string' }, ids: { type: 'integer', list: true }, d: { type: 'date' } },
    );
    expect(statement.sql).not.toContain('drop table');
    expect(statement.sql).toContain("(current_setting('datalab.p1')::text)");
    expect(statement.sql).toContain(
      "(ARRAY(SELECT jsonb_array_elements_text(current_setting('datalab.p2')::jsonb))::bigint[])",
    );
    expect(statement.sql).toContain('(NULL::date)');
    expect(statement.settings).toEqual([
      { name: 'datalab.p1', value: "x'); drop table t; --" },
      { name: 'datalab.p2', value: '[1,2]' },
    ]);
  });
});
