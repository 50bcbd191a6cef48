import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface TokenOwner {
  tokenId: number;
  userId: number;
  firmId: number;
  userName: string;
  kind: 'user' | 'api' | 'service';
  clientId: number | null;
  expiresAt: string;
  privileges: string[];
}

export class AuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findPartnerApp(clientId: number) {
    return this.db.selectFrom('partner_apps').selectAll().where('id', '=', clientId).executeTakeFirst();
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
      })
      .execute();
  }

  /** One query per authenticated request: the token, its user and the user's privileges. */
  async findLiveToken(tokenHash: string, audience: 'platform' | 'rebalancer', now: string): Promise<TokenOwner | undefined> {
    const rows = await this.db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('role_privileges as p', 'p.role_id', 'u.role_id')
      .select(['t.id', 't.user_id', 't.firm_id', 't.client_id', 't.expires_at', 'u.user_name', 'u.kind', 'p.privilege'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.audience', '=', audience)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .where('u.is_active', '=', 1)
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    return {
      tokenId: first.id,
      userId: first.user_id,
      firmId: first.firm_id,
      userName: first.user_name,
      kind: first.kind,
      clientId: first.client_id,
      expiresAt: first.expires_at,
      privileges: rows.flatMap((r) => (r.privilege ? [r.privilege] : [])),
    };
  }
}
