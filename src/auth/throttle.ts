import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import type { AuthRepository } from './repository.js';

export class LockedOut extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_attempts', `Too many failed sign-ins. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`);
  }
}

/** The longest an address with many failures is made to wait before its answer. */
const MAX_ADDRESS_DELAY_MS = 5_000;

/**
 * Counts failed sign-ins within a window, in the database so that every node sees the same counts:
 * - per user name and address: past `maxFailures` that pair is locked (someone guessing one
 *   user's password from one place);
 * - per user name from anywhere: locked past four times that (guessing spread over addresses);
 * - per address: never a lock, since an office behind one NAT shares it and an attacker could
 *   otherwise lock the whole firm out; past four times the limit, its answers slow down instead,
 *   and a user who gives the right password still gets in.
 */
export class SignInThrottle {
  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    private readonly maxFailures: number,
    private readonly lockSeconds: number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  private locks(userName: string, address: string) {
    const name = userName.toLowerCase();
    return [
      { key: `user-ip:${name}|${address}`, limit: this.maxFailures },
      { key: `user:${name}`, limit: this.maxFailures * 4 },
    ];
  }

  private addressKey = (address: string) => `ip:${address}`;

  /** Throws LockedOut when the user is locked (from this address or everywhere); slows a noisy address down. */
  async check(userName: string, address: string) {
    const now = this.clock.now().getTime();
    for (const { key } of this.locks(userName, address)) {
      const row = await this.repository.findFailures(key);
      const lockedUntil = row?.locked_until ? Date.parse(row.locked_until) : 0;
      if (lockedUntil > now) throw new LockedOut((lockedUntil - now) / 1000);
    }
    const fromAddress = await this.repository.findFailures(this.addressKey(address));
    const windowOpen = fromAddress && now - Date.parse(fromAddress.window_started_at) <= this.lockSeconds * 1000;
    const excess = windowOpen ? fromAddress.failures - this.maxFailures * 4 : 0;
    if (excess > 0) await this.sleep(Math.min(MAX_ADDRESS_DELAY_MS, excess * 250));
  }

  async failed(userName: string, address: string) {
    const now = this.clock.now();
    const windowMs = this.lockSeconds * 1000;
    for (const { key, limit } of [...this.locks(userName, address), { key: this.addressKey(address), limit: Number.POSITIVE_INFINITY }]) {
      const row = await this.repository.findFailures(key);
      const fresh = !row || now.getTime() - Date.parse(row.window_started_at) > windowMs;
      const failures = fresh ? 1 : row.failures + 1;
      await this.repository.saveFailures({
        key,
        failures,
        window_started_at: fresh ? now.toISOString() : row.window_started_at,
        locked_until: failures >= limit ? new Date(now.getTime() + windowMs).toISOString() : null,
      });
    }
  }

  async succeeded(userName: string, address: string) {
    for (const { key } of this.locks(userName, address)) await this.repository.clearFailures(key);
  }
}
