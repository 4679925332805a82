import type { AccountFindings } from './account.ts';

// What a MariaDB/MySQL account may do beyond reading (account.ts says why it matters), read from SHOW GRANTS for
// the account and, in turn, for every role granted to it. Only SELECT, SHOW VIEW, SHOW DATABASES and USAGE (no
// privilege at all) pass; FILE (LOAD_FILE reads any file the server can), SUPER and every other privilege is named.

const READING = new Set(['SELECT', 'SHOW VIEW', 'SHOW DATABASES', 'USAGE']);

const explained: Record<string, string> = {
  FILE: 'it holds FILE (reads and writes files of the database server)',
  SUPER: 'it holds SUPER (administers the server)',
  'ALL PRIVILEGES': 'it holds ALL PRIVILEGES',
};

/** A role name as SHOW GRANTS writes it: `name` or 'name', with an optional @host part. */
const roleName = /^(`[^`]+`|'[^']+')(@(`[^`]*`|'[^']*'))?$/;

export interface GrantReading {
  findings: AccountFindings;
  /** Roles granted to the account, as SHOW GRANTS names them (to be read in turn). */
  roles: string[];
}

/** The privileges of SHOW GRANTS lines beyond reading, and the roles they grant. */
export function readGrants(lines: readonly string[]): GrantReading {
  const findings: AccountFindings = [];
  const roles: string[] = [];
  for (const line of lines) {
    const privilege = /^GRANT\s+(.+?)\s+ON\s+(.+?)\s+TO\s/is.exec(line);
    if (!privilege) {
      const role = /^GRANT\s+(\S+)\s+TO\s/i.exec(line)?.[1];
      if (role && roleName.test(role)) roles.push(role);
      continue;
    }
    const target = privilege[2]!.trim();
    // Column lists (`SELECT (a, b)`) hold commas of their own.
    const names = privilege[1]!
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((name) => name.trim().toUpperCase().replace(/\s+/g, ' '))
      .filter(Boolean);
    const beyond: string[] = [];
    for (const name of names) {
      if (READING.has(name)) continue;
      const text = explained[name];
      if (text) findings.push(target === '*.*' ? text : `${text} on ${target}`);
      else beyond.push(name);
    }
    if (beyond.length > 0) findings.push(`it holds ${beyond.join(', ')} on ${target}`);
    if (/\bWITH\b.*\bGRANT\s+OPTION\b/i.test(line) && !names.includes('USAGE'))
      findings.push(`it may grant its privileges on ${target} to others`);
  }
  return { findings: [...new Set(findings)], roles };
}

/** Reads the account's grants and those of its active roles (at most 20 roles). */
export async function mysqlFindings(showGrants: (subject: string) => Promise<string[]>): Promise<AccountFindings> {
  const findings: AccountFindings = [];
  const seen = new Set<string>();
  const queue = ['CURRENT_USER()'];
  while (queue.length > 0 && seen.size <= 20) {
    const subject = queue.shift()!;
    if (seen.has(subject)) continue;
    seen.add(subject);
    let lines: string[];
    try {
      lines = await showGrants(subject);
    } catch (error) {
      // A role the account may not inspect is neither its default role nor one of that role's: it is never active
      // here (runs cannot SET ROLE: the statement guard refuses SET).
      if (subject === 'CURRENT_USER()') throw error;
      continue;
    }
    const reading = readGrants(lines);
    findings.push(...reading.findings);
    queue.push(...reading.roles);
  }
  return [...new Set(findings)];
}
