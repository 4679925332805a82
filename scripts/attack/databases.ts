import { spawnSync } from 'node:child_process';
import { admin, api, connection, record, sales } from './world.ts';

// Privileged database accounts, and the statement guard on a superuser connection an administrator allowed.

/** Superuser and FILE accounts, file functions behind the guard. */
export async function privilegedAccounts(): Promise<void> {
  const pgBase = { kind: 'postgres', host: '127.0.0.1', port: 5432, database: 'postgres' };
  const superuser = await connection({ ...pgBase, username: 'postgres', password: 'x' });
  const tested = await api(admin, 'POST', '/api/SqlConnection/Test', {
    collectionUid: sales,
    name: 'x',
    ...pgBase,
    username: 'postgres',
    password: 'x',
  });
  record(
    'PostgreSQL superuser connection',
    'save and test a connection as postgres (superuser)',
    superuser.status === 400 && tested.status === 400,
    `save ${superuser.status} "${superuser.json?.errors?.username?.[0]?.slice(0, 90)}…"; test ${tested.status}`,
  );
  const overridden = await connection({ ...pgBase, username: 'postgres', password: 'x', allowPrivilegedAccount: true });
  const id: number = overridden.json.id;
  const statements = [
    "select pg_read_file('/etc/passwd')",
    'select "pg_read_file"(\'/etc/passwd\')',
    "select pg_catalog.pg_read_binary_file('/etc/passwd')",
    "select lo_import('/etc/passwd')",
    "select * from pg_ls_dir('/')",
    "select query_to_xml('select pg_read_file(''/etc/passwd'')', true, true, '')",
    "select query_to_xml('select pg_read'||'_file(''/etc/passwd'')', true, true, '')",
    "select query_to_xml(convert_from('\\x73656c6563742070675f726561645f66696c6528272f6574632f70617373776427293b', 'utf8'), true, true, '')",
  ];
  const los = () =>
    spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'select count(*) from pg_largeobject_metadata'], {
      encoding: 'utf8',
    }).stdout.trim();
  const losBefore = los();
  const leaks: string[] = [];
  const answers: string[] = [];
  for (const sql of statements) {
    const preview = await api(admin, 'POST', '/api/SqlDataSource/Preview', {
      collectionUid: sales,
      connectionId: id,
      name: 'p',
      sql,
    });
    if (preview.text.includes('root:')) leaks.push(sql);
    answers.push(`${preview.status}`);
  }
  record(
    'File functions on a superuser connection an administrator allowed',
    `Preview of ${statements.length} statements (pg_read_file plain, quoted, schema-qualified, binary; lo_import; pg_ls_dir; query_to_xml of a string, a concatenation and hex)`,
    leaks.length === 0 && los() === losBefore,
    `statuses ${answers.join(', ')}; /etc/passwd in ${leaks.length} answer(s)${leaks.length ? `: ${leaks.join(' | ')}` : ''}; large objects ${losBefore} → ${los()}`,
  );
  const mariaRoot = { kind: 'mysql', host: '127.0.0.1', port: 3306, database: 'mysql', username: 'root', password: '' };
  const maria = await connection(mariaRoot);
  const mariaAllowed = await connection({ ...mariaRoot, allowPrivilegedAccount: true });
  const loads = [
    "select load_file('/etc/passwd')",
    'select LOAD_FILE(0x2f6574632f706173737764)',
    "select load_file/**/('/etc/passwd')",
    "select `load_file`('/etc/passwd')",
  ];
  const mariaLeaks: string[] = [];
  for (const sql of loads) {
    const preview = await api(admin, 'POST', '/api/SqlDataSource/Preview', {
      collectionUid: sales,
      connectionId: mariaAllowed.json.id,
      name: 'p',
      sql,
    });
    if (preview.text.includes('root:')) mariaLeaks.push(sql);
  }
  record(
    'MariaDB account with FILE',
    'save root@127.0.0.1 (FILE, SUPER); with the override, Preview LOAD_FILE plain, hex, commented, back-quoted',
    maria.status === 400 && mariaLeaks.length === 0,
    `save ${maria.status} "${maria.json?.errors?.username?.[0]?.slice(0, 70)}…"; /etc/passwd in ${mariaLeaks.length} answer(s)`,
  );
}
