import { analyst, api, asset, DATA_DIR, partner, record, sales, shop, short, sleep, unique } from './world.ts';

// Where SQL connections may point (internal hosts and ports, another collection's SQLite file) and a pattern that
// would backtrack.

/** Internal hosts and ports, another collection's SQLite file. */
export async function connectionTargets(): Promise<void> {
  const own = (await api(analyst, 'POST', '/api/DataSourceCollection', { name: unique('Analyst lab') })).json.uid;
  const targets = [
    ['127.0.0.1', 6379],
    ['127.0.0.1', 22],
    ['0x7f000001', 5433],
    ['::ffff:127.0.0.1', 6379],
    ['10.0.0.5', 5432],
    ['169.254.169.254', 80],
    ['metadata.google.internal', 5432],
    ['/var/run/postgresql', 5432],
  ] as const;
  const answers: string[] = [];
  let allRefused = true;
  for (const [host, port] of targets) {
    const body = { collectionUid: own, name: 'x', kind: 'postgres', host, port, database: 'postgres', username: 'u' };
    const tested = await api(analyst, 'POST', '/api/SqlConnection/Test', { ...body, password: 'x' });
    allRefused &&= tested.status === 400 && Boolean(tested.json?.errors?.host);
    answers.push(`${host}:${port} ${tested.status} ${tested.ms} ms`);
  }
  record(
    'SQL connections to internal hosts and ports',
    `analyst (Owner of a new collection) tests ${targets.length} internal targets; SQL_HOST_ALLOWLIST lists 127.0.0.1:5432 and :3306 only`,
    allRefused,
    `${answers.join('; ')}; e.g. "${
      (
        await api(analyst, 'POST', '/api/SqlConnection/Test', {
          collectionUid: own,
          name: 'x',
          kind: 'postgres',
          host: '10.0.0.5',
          port: 5432,
          database: 'postgres',
          username: 'u',
          password: 'x',
        })
      ).json?.errors?.host?.[0]
    }"`,
  );
  const paths = [
    `../${sales}/shop.sqlite`,
    `${DATA_DIR ?? '/data'}/sqlite/${sales}/shop.sqlite`,
    '../../store.sqlite',
    '/etc/passwd',
  ];
  const opened: string[] = [];
  for (const database of paths) {
    const saved = await api(analyst, 'POST', '/api/SqlConnection', {
      collectionUid: own,
      name: unique('s'),
      kind: 'sqlite',
      database,
    });
    if (saved.status === 201) opened.push(database);
  }
  record(
    "Another collection's SQLite file",
    `analyst saves SQLite connections to ${paths.join(', ')}`,
    opened.length === 0,
    opened.length
      ? `saved: ${opened.join(', ')}`
      : 'each 400 on database: "The SQLite file must be in the collection\'s own folder…"',
  );
}

/** A backtracking pattern ^(a+)+$ against a long input, with another call at once. */
export async function backtrackingPattern(): Promise<void> {
  const uid = await asset(shop, 'select :s as s', [{ name: 's', type: 'string', required: true, pattern: '^(a+)+$' }]);
  const plain = await asset(shop, 'select 1 as one');
  const evil = `${'a'.repeat(40)}!`;
  const [attack, other] = await Promise.all([
    api(partner, 'GET', `/data/v1/${uid}?s=${evil}`),
    sleep(5).then(() => api(partner, 'GET', `/data/v1/${plain}`)),
  ]);
  record(
    'Backtracking pattern ^(a+)+$',
    `Editor saves the pattern; partner sends 40 "a" and "!", another call at once`,
    attack.ms < 100 && other.ms < 200,
    `${short(attack)} "${attack.json?.errors?.s?.[0]}" in ${attack.ms} ms; the other call ${other.status} in ${other.ms} ms`,
  );
}
