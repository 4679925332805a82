import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/support/app.ts';
import { type Instances, startInstances } from '../../test/support/instances.ts';
import { openLoginForm } from '../../test/support/login-form.ts';
import { isPostgresAvailable } from '../../test/support/stores.ts';
import { INVALID_CREDENTIALS, INVALID_FORM } from './interactions.ts';
import { ADDRESS_FAILURES } from './sign-in-throttle.ts';

const postgres = await isPostgresAvailable();

// The built-in sign-in form over HTTP: password guessing is slowed down per account and address
// and per address, the owner is not locked out for long, and no input makes it fail with a 500.

const THROTTLED = /Too many failed sign-in attempts\. Try again in (\d+) seconds?\./;
const signedIn = (status: number, location: unknown) => status === 303 && String(location).includes('/oidc/auth/');

describe('sign-in form', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });
  const form = (address: string) => openLoginForm(t.app, TEST_PUBLIC_URL, address);

  it('signs in with the right password', async () => {
    const response = await (await form('10.0.0.1')).post({ username: 'analyst', password: 'datalab' });
    expect(signedIn(response.statusCode, response.headers.location)).toBe(true);
  });

  it('slows down repeated failures for one account from one address, with a clear message', async () => {
    const login = await form('10.0.0.2');
    for (let i = 0; i < 4; i += 1) {
      const response = await login.post({ username: 'admin', password: `guess-${i}` });
      expect(response.statusCode).toBe(401);
      expect(response.body).toContain(INVALID_CREDENTIALS);
    }
    const fifth = await login.post({ username: 'admin', password: 'guess-5' });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.body).toMatch(THROTTLED);
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(0);
    // While blocked, even the right password waits: guessing gains nothing.
    const right = await login.post({ username: 'admin', password: 'datalab' });
    expect(right.statusCode).toBe(429);
    // The owner at another address is not locked out.
    const elsewhere = await (await form('10.0.0.3')).post({ username: 'admin', password: 'datalab' });
    expect(signedIn(elsewhere.statusCode, elsewhere.headers.location)).toBe(true);
  });

  it('lets the owner in after a short wait, and a success starts the count over', async () => {
    const login = await form('10.0.0.4');
    for (let i = 0; i < 4; i += 1) await login.post({ username: 'partner', password: `guess-${i}` });
    const blocked = await login.post({ username: 'partner', password: 'guess-5' });
    const seconds = Number(THROTTLED.exec(blocked.body)?.[1]);
    expect(seconds).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    const owner = await login.post({ username: 'partner', password: 'datalab' });
    expect(signedIn(owner.statusCode, owner.headers.location)).toBe(true);
    const again = await (await form('10.0.0.4')).post({ username: 'partner', password: 'typo' });
    expect(again.statusCode).toBe(401);
  });

  it('limits failures per address across accounts', async () => {
    const login = await form('10.0.0.5');
    for (let i = 1; i < ADDRESS_FAILURES; i += 1) {
      expect((await login.post({ username: `someone-${i}`, password: 'x' })).statusCode).toBe(401);
    }
    expect((await login.post({ username: 'someone-last', password: 'x' })).statusCode).toBe(429);
    const next = await login.post({ username: 'analyst', password: 'datalab' });
    expect(next.statusCode).toBe(429);
    expect(next.body).toMatch(THROTTLED);
  }, 60_000);

  it.each([
    ['a bracketed field', { body: 'login[]=a' }],
    ['a repeated field', { body: 'username=admin&username=analyst&password=datalab' }],
    ['a 100 kB password', { body: `username=admin&password=${'x'.repeat(100_000)}` }],
    ['a 300-character username', { body: `username=${'u'.repeat(300)}&password=x` }],
    [
      'a JSON body with numbers',
      { body: JSON.stringify({ username: 1, password: ['x'] }), contentType: 'application/json' },
    ],
    ['malformed JSON', { body: '{"username":', contentType: 'application/json' }],
  ])('answers %s with 400 and the form, and logs no error', async (_name, options) => {
    const login = await form('10.0.0.6');
    const before = await t.app.db.selectFrom('application_logs').select('id').execute();
    const response = await login.post({}, options);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain(INVALID_FORM);
    const after = await t.app.db.selectFrom('application_logs').select('id').execute();
    expect(after.length).toBe(before.length);
  });
});

// Two instances of one deployment: one PostgreSQL store (counters in Redis are per store: lib/deployment.ts).
(postgres ? describe : describe.skip)('sign-in throttling with REDIS_URL [postgres]', () => {
  let instances: Instances | undefined;
  let apps: TestApp[] = [];
  beforeAll(async () => {
    instances = await startInstances(2, { REDIS_URL: 'redis://127.0.0.1:6379' });
    apps = instances.apps;
  });
  afterAll(async () => {
    await instances?.close();
  });

  it('counts failures across instances that share Redis', async () => {
    // A fresh address per run: counters outlive the test in Redis.
    const octet = () => Math.floor(Math.random() * 250);
    const address = `10.${octet()}.${octet()}.${octet()}`;
    const [first, second] = apps as [TestApp, TestApp];
    const onFirst = await openLoginForm(first.app, TEST_PUBLIC_URL, address);
    for (let i = 0; i < 4; i += 1)
      expect((await onFirst.post({ username: 'admin', password: `guess-${i}` })).statusCode).toBe(401);
    const onSecond = await openLoginForm(second.app, TEST_PUBLIC_URL, address);
    const refused = await onSecond.post({ username: 'admin', password: 'guess-5' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(THROTTLED);
  });
});
