import { EngineError } from '../errors.ts';

// A circuit breaker per upstream host: after `failureThreshold` failures in a row (no answer, a timeout, a 5xx) the
// host is "open" and calls fail at once, without a socket, for `cooldownMs`; then one call goes through as a probe
// (half-open) while the others still fail fast; its success closes the circuit, its failure opens it again.

export interface BreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  now?: () => number;
}

interface HostState {
  failures: number;
  openedAt: number | undefined;
  probing: boolean;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  readonly #options: BreakerOptions;
  readonly #hosts = new Map<string, HostState>();
  readonly #now: () => number;

  constructor(options: BreakerOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  state(host: string): BreakerState {
    const entry = this.#hosts.get(host);
    if (entry?.openedAt === undefined) return 'closed';
    return this.#now() - entry.openedAt >= this.#options.cooldownMs ? 'half-open' : 'open';
  }

  /** Throws UPSTREAM_FAILED at once while the host's circuit is open; lets one probe through after the cool-down. */
  enter(host: string): void {
    const entry = this.#hosts.get(host);
    if (entry?.openedAt === undefined) return;
    const waited = this.#now() - entry.openedAt;
    if (waited >= this.#options.cooldownMs && !entry.probing) {
      entry.probing = true;
      return;
    }
    const seconds = Math.max(1, Math.ceil((this.#options.cooldownMs - waited) / 1000));
    throw new EngineError(
      'UPSTREAM_FAILED',
      `The web API at ${host} is failing; calls to it are paused (next try in about ${seconds} s)`,
    );
  }

  success(host: string): void {
    this.#hosts.delete(host);
  }

  failure(host: string): void {
    const entry = this.#hosts.get(host) ?? { failures: 0, openedAt: undefined, probing: false };
    entry.failures += 1;
    if (entry.probing || entry.failures >= this.#options.failureThreshold) entry.openedAt = this.#now();
    entry.probing = false;
    this.#hosts.set(host, entry);
  }

  /** A call that ended without a verdict on the host (cancelled, refused by the guard): frees a probe slot. */
  release(host: string): void {
    const entry = this.#hosts.get(host);
    if (entry) entry.probing = false;
  }
}
