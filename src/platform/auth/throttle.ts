import type { Clock } from '../../shared/clock.js';
import { DomainError } from '../../shared/errors.js';
import type { AuthRepository } from './repository.js';

export class LockedOut extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('too_many_attempts', `Too many failed sign-ins. Try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s).`);
  }
}

/**
 * Counts failed sign-ins per user name and per address within a window; past the limit the key
 * is locked for a while. An address gets four times the user limit, since offices share one.
 * State lives in the database so that every node sees the same counts.
 */
export class SignInThrottle {
  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    private readonly maxFailures: number,
    private readonly lockSeconds: number,
  ) {}

  private keys(userName: string, address: string) {
    return [
      { key: `user:${userName.toLowerCase()}`, limit: this.maxFailures },
      { key: `ip:${address}`, limit: this.maxFailures * 4 },
    ];
  }

  /** Throws LockedOut when either the user or the address is locked. */
  async check(userName: string, address: string) {
    const now = this.clock.now().getTime();
    for (const { key } of this.keys(userName, address)) {
      const row = await this.repository.findFailures(key);
      const lockedUntil = row?.locked_until ? Date.parse(row.locked_until) : 0;
      if (lockedUntil > now) throw new LockedOut((lockedUntil - now) / 1000);
    }
  }

  async failed(userName: string, address: string) {
    const now = this.clock.now();
    const windowMs = this.lockSeconds * 1000;
    for (const { key, limit } of this.keys(userName, address)) {
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

  async succeeded(userName: string) {
    await this.repository.clearFailures(`user:${userName.toLowerCase()}`);
  }
}
