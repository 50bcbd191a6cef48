import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type {
  AuthorizationCodeTable,
  Database,
  OAuthFlowTable,
  RefreshTokenTable,
  SignInFailureTable,
  UserTable,
} from '../db/schema.js';
import { preparedQuery } from '../db/prepared.js';
import type { Announced, Revocations } from './revocations.js';
import type { RevokedSubject } from './token-cache.js';

export type UserRow = Selectable<UserTable>;

export interface TokenOwner {
  tokenId: number;
  userId: number;
  firmId: number;
  userName: string;
  kind: 'user' | 'api' | 'service';
  clientId: number | null;
  /** The session the token belongs to (an OAuth authorization or a Basic login); null for older tokens. */
  chainId: string | null;
  expiresAt: string;
  privileges: string[];
}

/** Compiled once per dialect (its SQL checked in: `repository.sql.test.ts`). */
export const liveToken = preparedQuery((db: Kysely<Database>, tokenHash: string, audience: 'platform' | 'rebalancer', now: string) =>
  db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('partner_apps as a', 'a.id', 't.client_id')
    .leftJoin('role_privileges as p', 'p.role_id', 'u.role_id')
    .select(['t.id', 't.user_id', 't.firm_id', 't.client_id', 't.chain_id', 't.expires_at', 'u.user_name', 'u.kind', 'p.privilege'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.audience', '=', audience)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .where('u.is_active', '=', 1)
    // A token issued through a partner app dies with the app.
    .where((eb) => eb.or([eb('t.client_id', 'is', null), eb('a.is_active', '=', 1)])),
);

export class AuthRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** The process's token cache and revocation channel; every write taking access away announces itself there. */
    private readonly revocations: Revocations,
    /** Inside a transaction: its revocations, settled once it commits. */
    private readonly pending?: Announced[],
  ) {}

  async transaction<T>(work: (repository: AuthRepository) => Promise<T>): Promise<T> {
    if (this.pending) return work(this);
    const announced: Announced[] = [];
    const result = await this.db.transaction().execute((trx) => work(new AuthRepository(trx, this.revocations, announced)));
    await this.revocations.committed(announced);
    return result;
  }

  /**
   * The one path of every write that takes access away (a revoked token or chain, a deactivated
   * user, a new password, a revoked partner app): the process's cache forgets what it concerns,
   * and on PostgreSQL a notification in the write's own transaction tells every other process,
   * when and only when the write commits. Called inside `transaction`.
   */
  private async revoked(subject: RevokedSubject): Promise<void> {
    if (!this.pending) throw new Error('a revocation is written inside AuthRepository.transaction');
    const announced = this.revocations.announce(subject);
    if (this.revocations.channel) await sql`select pg_notify(${this.revocations.channel}, ${announced.payload})`.execute(this.db);
    this.pending.push(announced);
  }

  findUser(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  // --- user administration

  findFirmUser(firmId: number, userId: number) {
    return this.db.selectFrom('users').selectAll().where('firm_id', '=', firmId).where('id', '=', userId).executeTakeFirst();
  }

  /** A page of the firm's users in id order, with how many there are (a firm's staff: always counted). */
  async firmUsers(firmId: number, page: { top: number; skip: number }) {
    const query = this.db.selectFrom('users').where('firm_id', '=', firmId);
    const rows = await query.selectAll().orderBy('id').limit(page.top).offset(page.skip).execute();
    const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  findFirmUserByName(firmCode: string, userName: string) {
    return this.db
      .selectFrom('users as u')
      .innerJoin('firms as f', 'f.id', 'u.firm_id')
      .selectAll('u')
      .where('f.code', '=', firmCode)
      .where('u.user_name', '=', userName)
      .executeTakeFirst();
  }

  async setUserActive(userId: number, active: boolean) {
    await this.transaction(async (repository) => {
      await repository.db.updateTable('users').set({ is_active: active ? 1 : 0 }).where('id', '=', userId).execute();
      if (!active) await repository.revoked({ user: userId });
    });
  }

  async setPasswordHash(userId: number, passwordHash: string) {
    await this.transaction(async (repository) => {
      await repository.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
      await repository.revoked({ user: userId });
    });
  }

  // --- sign-in flows (browser side of the authorization-code flow)

  async insertFlow(row: Insertable<OAuthFlowTable>) {
    await this.db.insertInto('oauth_flows').values(row).execute();
  }

  findFlow(id: string, now: string) {
    return this.db.selectFrom('oauth_flows').selectAll().where('id', '=', id).where('expires_at', '>', now).executeTakeFirst();
  }

  async setFlowUser(id: string, userId: number) {
    await this.db.updateTable('oauth_flows').set({ user_id: userId }).where('id', '=', id).execute();
  }

  async deleteFlow(id: string) {
    await this.db.deleteFrom('oauth_flows').where('id', '=', id).execute();
  }

  async deleteExpiredFlows(now: string) {
    await this.db.deleteFrom('oauth_flows').where('expires_at', '<=', now).execute();
  }

  // --- authorization codes

  async insertCode(row: Insertable<AuthorizationCodeTable>) {
    await this.db.insertInto('authorization_codes').values(row).execute();
  }

  findCode(codeHash: string) {
    return this.db.selectFrom('authorization_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  }

  /** Marks the code redeemed; true only for the one caller that redeems it first. */
  async redeemCode(id: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_codes')
      .set({ redeemed_at: now })
      .where('id', '=', id)
      .where('redeemed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  // --- refresh tokens

  async insertRefreshToken(row: Insertable<RefreshTokenTable>) {
    await this.db.insertInto('refresh_tokens').values(row).execute();
  }

  findRefreshToken(tokenHash: string) {
    return this.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /** Marks the token used; true only for the one caller that uses it first. */
  async useRefreshToken(id: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async storeSuccessor(id: number, sealed: string) {
    await this.db.updateTable('refresh_tokens').set({ successor_sealed: sealed }).where('id', '=', id).execute();
  }

  // --- revocation: every write that ends a token lives here, one method per kind, so that whatever
  // remembers tokens (a cache) has one place per kind to hear of it. A token minted from another
  // carries its parent's chain_id, so the chain revocation ends it too.

  /** Every live access and refresh token of a user, on every client: the next request with one is refused. */
  async revokeUserTokens(userId: number, now: string) {
    await this.transaction(async (repository) => {
      await repository.db.updateTable('access_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await repository.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await repository.revoked({ user: userId });
    });
  }

  /** A partner app revoked (or restored): the tokens issued through it are refused (or taken) on the next request. */
  async setPartnerAppActive(appId: number, active: boolean) {
    await this.transaction(async (repository) => {
      await repository.db.updateTable('partner_apps').set({ is_active: active ? 1 : 0 }).where('id', '=', appId).execute();
      if (!active) await repository.revoked({ app: appId });
    });
  }

  /** Revokes every access and refresh token of a chain (replay of a used code or refresh token). */
  async revokeChain(chainId: string, now: string) {
    await this.transaction(async (repository) => {
      await repository.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('chain_id', '=', chainId).where('revoked_at', 'is', null).execute();
      await repository.db.updateTable('access_tokens').set({ revoked_at: now }).where('chain_id', '=', chainId).where('revoked_at', 'is', null).execute();
      await repository.revoked({ chain: chainId });
    });
  }

  /** One active refresh token per user and client: voids the others. */
  async revokeOtherRefreshTokens(userId: number, clientId: number, keepChainId: string, now: string) {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .where('chain_id', '!=', keepChainId)
      .where('revoked_at', 'is', null)
      .where('used_at', 'is', null)
      .execute();
  }

  // --- sign-in throttling

  findFailures(key: string) {
    return this.db.selectFrom('sign_in_failures').selectAll().where('key', '=', key).executeTakeFirst();
  }

  async saveFailures(row: SignInFailureTable) {
    await this.db
      .insertInto('sign_in_failures')
      .values(row)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ failures: row.failures, window_started_at: row.window_started_at, locked_until: row.locked_until }),
      )
      .execute();
  }

  async clearFailures(key: string) {
    await this.db.deleteFrom('sign_in_failures').where('key', '=', key).execute();
  }

  findPartnerApp(clientId: number) {
    return this.db.selectFrom('partner_apps').selectAll().where('id', '=', clientId).executeTakeFirst();
  }

  /** The user a token belongs to, with role and firm: what both applications answer to "who am I". */
  signedInUser(firmId: number, userId: number) {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .innerJoin('firms as f', 'f.id', 'u.firm_id')
      .select(['u.id', 'u.user_name', 'u.display_name', 'u.email', 'u.kind', 'u.is_active', 'u.created_at', 'r.id as role_id', 'r.name as role_name', 'f.id as firm_id', 'f.name as firm_name', 'f.code as firm_code'])
      .where('u.firm_id', '=', firmId)
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

  /** The active partner app a firm lets Basic-only logins go through, if the firm allows them. */
  basicLoginAppOf(firmId: number) {
    return this.db
      .selectFrom('firms as f')
      .innerJoin('partner_apps as a', 'a.id', 'f.basic_login_app_id')
      .selectAll('a')
      .where('f.id', '=', firmId)
      .where('a.firm_id', '=', firmId)
      .where('a.is_active', '=', 1)
      .executeTakeFirst();
  }

  basicLoginSettingOf(firmId: number) {
    return this.db
      .selectFrom('firms as f')
      .leftJoin('partner_apps as a', 'a.id', 'f.basic_login_app_id')
      .select(['f.basic_login_app_id', 'a.name as app_name', 'a.is_active as app_active'])
      .where('f.id', '=', firmId)
      .executeTakeFirstOrThrow();
  }

  setBasicLoginApp(firmId: number, appId: number | null) {
    return this.db.updateTable('firms').set({ basic_login_app_id: appId }).where('id', '=', firmId).execute();
  }

  /** The firm's active partner apps, oldest first: the first is its default. */
  activePartnerAppsOf(firmId: number) {
    return this.db.selectFrom('partner_apps').select(['id', 'name']).where('firm_id', '=', firmId).where('is_active', '=', 1).orderBy('id').execute();
  }

  findUserByName(userName: string) {
    return this.db.selectFrom('users').selectAll().where('user_name', '=', userName.toLowerCase()).executeTakeFirst();
  }

  async insertAccessToken(row: {
    firmId: number;
    userId: number;
    clientId: number | null;
    audience: 'platform' | 'rebalancer';
    tokenHash: string;
    expiresAt: string;
    createdAt: string;
    chainId?: string | null;
  }) {
    await this.db
      .insertInto('access_tokens')
      .values({
        firm_id: row.firmId,
        user_id: row.userId,
        client_id: row.clientId,
        audience: row.audience,
        token_hash: row.tokenHash,
        expires_at: row.expiresAt,
        created_at: row.createdAt,
        chain_id: row.chainId ?? null,
      })
      .execute();
  }

  /**
   * The token, its user and the user's privileges in one query. Built and compiled once: every
   * request the token cache (token-cache.ts) cannot answer runs it.
   */
  async findLiveToken(tokenHash: string, audience: 'platform' | 'rebalancer', now: string): Promise<TokenOwner | undefined> {
    const { rows } = await liveToken(this.db, tokenHash, audience, now);
    const first = rows[0];
    if (!first) return undefined;
    return {
      tokenId: first.id,
      userId: first.user_id,
      firmId: first.firm_id,
      userName: first.user_name,
      kind: first.kind,
      clientId: first.client_id,
      chainId: first.chain_id,
      expiresAt: first.expires_at,
      privileges: rows.flatMap((r) => (r.privilege ? [r.privilege] : [])),
    };
  }
}
