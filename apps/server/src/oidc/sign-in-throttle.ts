import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { LimiterOptions } from '../lib/call-limits.ts';

// Slows down password guessing at the built-in sign-in without locking the owner out for long:
// - per account and address: a few free failures, then blocks that double (2 s, 4 s, 8 s ... at
//   most 5 minutes); a successful sign-in starts over;
// - per address, whatever the account: a broader budget, against trying many accounts.
// Someone guessing from elsewhere never blocks the owner at their own address for more than a
// window of the per-address budget.

const FREE_FAILURES = 4;
const MAX_BLOCK_SECONDS = 5 * 60;
const FAILURE_MEMORY_SECONDS = 60 * 60;
export const ADDRESS_FAILURES = 30;
const ADDRESS_WINDOW_SECONDS = 15 * 60;

export const tooManyAttempts = (seconds: number) =>
  `Too many failed sign-in attempts. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

export interface SignInThrottle {
  /** Seconds to wait before this account may be tried from this address; 0 when it may. */
  waitFor: (username: string, address: string) => Promise<number>;
  /** Counts a failure; answers the seconds to wait from now on (0 while failures are still free). */
  failed: (username: string, address: string) => Promise<number>;
  succeeded: (username: string, address: string) => Promise<void>;
}

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function createSignInThrottle(create: (options: LimiterOptions) => RateLimiterAbstract): SignInThrottle {
  const failures = create({ keyPrefix: 'signin-failures', points: 1_000_000, duration: FAILURE_MEMORY_SECONDS });
  const blocks = create({ keyPrefix: 'signin-blocks', points: 1, duration: 1 });
  const perAddress = create({
    keyPrefix: 'signin-address',
    points: ADDRESS_FAILURES,
    duration: ADDRESS_WINDOW_SECONDS,
  });
  const accountKey = (username: string, address: string) => `${username.trim().toLowerCase()}|${address}`;

  const waitFor = async (username: string, address: string) => {
    const [blocked, addressUse] = await Promise.all([
      blocks.get(accountKey(username, address)),
      perAddress.get(address),
    ]);
    const waits = [
      blocked && blocked.consumedPoints > 1 ? blocked.msBeforeNext : 0,
      addressUse && addressUse.consumedPoints >= ADDRESS_FAILURES ? addressUse.msBeforeNext : 0,
    ];
    const wait = Math.max(...waits);
    return wait > 0 ? secondsOf(wait) : 0;
  };

  return {
    waitFor,
    failed: async (username, address) => {
      const key = accountKey(username, address);
      await perAddress.penalty(address, 1);
      const { consumedPoints } = await failures.penalty(key, 1);
      if (consumedPoints > FREE_FAILURES) {
        await blocks.block(key, Math.min(2 ** (consumedPoints - FREE_FAILURES), MAX_BLOCK_SECONDS));
      }
      return waitFor(username, address);
    },
    succeeded: async (username, address) => {
      await failures.delete(accountKey(username, address));
    },
  };
}
