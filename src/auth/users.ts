import { type Clock, isoNow } from '../shared/clock.js';
import { DomainError, notFound, validationError } from '../shared/errors.js';
import type { AuthRepository, UserRow } from './repository.js';
import { hashPassword, newClientSecret } from './secrets.js';

export const MIN_PASSWORD_LENGTH = 12;

export interface UserRecord {
  id: number;
  userName: string;
  displayName: string;
  kind: 'user' | 'api' | 'service';
  isActive: boolean;
}

const record = (user: UserRow): UserRecord => ({ id: user.id, userName: user.user_name, displayName: user.display_name, kind: user.kind, isActive: user.is_active === 1 });

/**
 * What an administrator does to a firm's users: deactivate, reactivate, reset a password. Each
 * change that takes access away also revokes the user's tokens in the same step, and tokens are
 * resolved per request (AuthService.authenticate), so every process refuses them at once.
 */
export class UserAdminService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
  ) {}

  async list(firmId: number, page: { top: number; skip: number }): Promise<{ items: UserRecord[]; total: number }> {
    const { rows, total } = await this.repository.firmUsers(firmId, page);
    return { items: rows.map(record), total };
  }

  private async user(firmId: number, userId: number) {
    const user = await this.repository.findFirmUser(firmId, userId);
    if (!user) throw notFound('user', userId);
    return user;
  }

  async setActive(actor: { firmId: number; userId: number }, userId: number, active: boolean): Promise<UserRecord> {
    const user = await this.user(actor.firmId, userId);
    if (!active && user.id === actor.userId) throw new DomainError('invalid_state', 'an administrator cannot deactivate their own user');
    await this.repository.transaction(async (repository) => {
      await repository.setUserActive(user.id, active);
      if (!active) await repository.revokeUserTokens(user.id, isoNow(this.clock));
    });
    return record({ ...user, is_active: active ? 1 : 0 });
  }

  /** Sets the given password, or a generated one that is returned once; the user's sessions end. */
  async resetPassword(firmId: number, userId: number, password?: string): Promise<{ user: UserRecord; password?: string }> {
    const user = await this.user(firmId, userId);
    if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw validationError('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
    const chosen = password ?? newClientSecret();
    const hash = await hashPassword(chosen);
    await this.repository.transaction(async (repository) => {
      await repository.setPasswordHash(user.id, hash);
      await repository.revokeUserTokens(user.id, isoNow(this.clock));
    });
    return { user: record(user), ...(password === undefined ? { password: chosen } : {}) };
  }

  /** For the CLI, which names users by firm code and user name. */
  async userByName(firmCode: string, userName: string) {
    const user = await this.repository.findFirmUserByName(firmCode, userName);
    if (!user) throw new DomainError('not_found', `no user ${userName} in firm ${firmCode}`);
    return user;
  }
}
