import { EngineError } from '../errors.ts';

// The account a SQL connection signs in with must only be able to read: a superuser, a member of PostgreSQL's
// file-reading roles or a MariaDB account holding FILE can read the database server's files with a plain SELECT,
// and an account that may write is one missed check away from changing data. The connectors ask the database what
// the account may do (postgres-account.ts, mysql-account.ts) and refuse it — on a connection test, and before the
// first run of each pool, the pass kept for a minute — unless an administrator allowed this account on the
// connection (`allowPrivilegedAccount`). docs/operations.md, "Read-only database accounts", shows how to make one.

/** How long a pool's passed check holds before the next run asks again (a grant may have changed meanwhile). */
export const ACCOUNT_CHECK_TTL_MS = 60_000;

/** Findings named in one message at most; the rest are counted. */
const MAX_NAMED = 6;

export const ACCOUNTS_DOCS = '"Read-only database accounts" in docs/operations.md';

/** What an account may do beyond reading, in a few words each ("it is a superuser", "it may write to public.t"). */
export type AccountFindings = string[];

function listed(findings: AccountFindings): string {
  const named = findings.slice(0, MAX_NAMED);
  const more = findings.length - named.length;
  return named.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** The refusal: what was found and what to do. */
export function privilegedAccountError(findings: AccountFindings): EngineError {
  return new EngineError(
    'PRIVILEGED_ACCOUNT',
    `The database account may do more than read: ${listed(findings)}. Connect with an account that may only read ` +
      `(SELECT) — see ${ACCOUNTS_DOCS} — or have an administrator allow this account on the connection`,
  );
}

/** The warning a connection test gives when an administrator allowed such an account. */
export function allowedAccountWarning(findings: AccountFindings): string {
  return (
    `An administrator allowed this account although it may do more than read: ${listed(findings)}. ` +
    'Statements still run in read-only transactions that are rolled back'
  );
}

export interface AccountCheck {
  /** Resolves when the account may be used: checked now, or passed within the last minute. */
  ensure(signal?: AbortSignal): Promise<void>;
  /** Asks the database now (a connection test): the findings, and throws the refusal unless allowed. */
  verify(signal?: AbortSignal): Promise<AccountFindings>;
}

/**
 * A pool's account check: `inspect` asks the database what the account may do. One inspection at a time is shared
 * by every run waiting for it; a pass is kept for ACCOUNT_CHECK_TTL_MS, a refusal is not (the next run asks again).
 */
export function accountCheck(
  inspect: (signal?: AbortSignal) => Promise<AccountFindings>,
  allowed: boolean,
  now: () => number = Date.now,
): AccountCheck {
  let passedAt = -Infinity;
  let pending: Promise<void> | undefined;

  async function verify(signal?: AbortSignal): Promise<AccountFindings> {
    const findings = await inspect(signal);
    if (findings.length > 0 && !allowed) throw privilegedAccountError(findings);
    passedAt = now();
    return findings;
  }

  return {
    verify,
    ensure(signal) {
      if (now() - passedAt < ACCOUNT_CHECK_TTL_MS) return Promise.resolve();
      pending ??= verify(signal).then(
        () => {
          pending = undefined;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}
