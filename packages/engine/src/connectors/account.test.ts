import { describe, expect, it } from 'vitest';
import { ACCOUNT_CHECK_TTL_MS, accountCheck } from './account.ts';
import { readGrants } from './mysql-account.ts';

describe('accountCheck', () => {
  it('asks once for runs that wait together, keeps a pass for a minute, and asks again after', async () => {
    let now = 0;
    let asked = 0;
    const check = accountCheck(
      async () => {
        asked += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return [];
      },
      false,
      () => now,
    );
    await Promise.all([check.ensure(), check.ensure(), check.ensure()]);
    expect(asked).toBe(1);
    now += ACCOUNT_CHECK_TTL_MS - 1;
    await check.ensure();
    expect(asked).toBe(1);
    now += 1;
    await check.ensure();
    expect(asked).toBe(2);
  });

  it('refuses with what it found and keeps no refusal; an allowed account passes', async () => {
    let findings = ['it is a superuser'];
    let asked = 0;
    const check = accountCheck(async () => {
      asked += 1;
      return findings;
    }, false);
    await expect(check.ensure()).rejects.toMatchObject({
      code: 'PRIVILEGED_ACCOUNT',
      message: expect.stringContaining('it is a superuser') as string,
    });
    findings = [];
    await check.ensure();
    expect(asked).toBe(2);
    const allowed = accountCheck(async () => ['it is a superuser'], true);
    await expect(allowed.verify()).resolves.toEqual(['it is a superuser']);
  });
});

describe('readGrants', () => {
  it('passes reading privileges and names every other one, and the roles granted', () => {
    const reading = readGrants([
      "GRANT USAGE ON *.* TO `r`@`%` IDENTIFIED BY PASSWORD '*ABC'",
      'GRANT SELECT, SHOW VIEW ON `shop`.* TO `r`@`%`',
      'GRANT SELECT (`a`, `b`) ON `shop`.`t` TO `r`@`%`',
    ]);
    expect(reading).toEqual({ findings: [], roles: [] });
    const powerful = readGrants([
      'GRANT FILE, PROCESS ON *.* TO `w`@`%`',
      'GRANT SELECT, INSERT, UPDATE (`a`, `b`) ON `shop`.* TO `w`@`%` WITH GRANT OPTION',
      'GRANT `writers` TO `w`@`%`',
      'GRANT ALL PRIVILEGES ON *.* TO `root`@`localhost` WITH GRANT OPTION',
    ]);
    expect(powerful.findings).toEqual([
      'it holds FILE (reads and writes files of the database server)',
      'it holds PROCESS on *.*',
      'it holds INSERT, UPDATE on `shop`.*',
      'it may grant its privileges on `shop`.* to others',
      'it holds ALL PRIVILEGES',
      'it may grant its privileges on *.* to others',
    ]);
    expect(powerful.roles).toEqual(['`writers`']);
    expect(powerful.findings.join(' ')).not.toContain('*ABC');
  });
});
