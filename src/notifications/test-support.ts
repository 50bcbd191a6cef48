import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TestContext } from '../../test/support/app.js';
import { digest } from '../auth/secrets.js';

export interface Partner {
  clientId: number;
  clientSecret: string;
  name: string;
}

/** A second partner application of a firm (the test firm comes with one). */
export async function createPartner(db: Kysely<Database>, firmId: number, name: string): Promise<Partner> {
  const clientSecret = randomUUID();
  const row = await db
    .insertInto('partner_apps')
    .values({ firm_id: firmId, name, client_secret_hash: digest(clientSecret), redirect_uris: '[]', access_token_ttl_seconds: 31_536_000, refresh_token_ttl_seconds: 86400, is_active: 1, created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { clientId: row.id, clientSecret, name };
}

export const partnerOf = (firm: TestContext['firm']): Partner => ({ clientId: firm.clientId, clientSecret: firm.clientSecret, name: `Partner of ${firm.users.admin.userName.split('@')[1]}` });

/** `Authorization` of a platform token issued to `partner` for a user (Basic login, section 5.5). */
export async function sessionThrough(t: TestContext, user: keyof TestContext['firm']['users'], partner: Partner, of: 'firm' | 'otherFirm' = 'firm') {
  const credentials = t[of].users[user];
  const response = await t.app.inject({
    url: '/api/v1/security/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.userName}:${credentials.password}`).toString('base64')}`,
      client_id: String(partner.clientId),
      client_secret: partner.clientSecret,
    },
  });
  if (response.statusCode !== 200) throw new Error(`login through ${partner.name}: ${response.body}`);
  return `Session ${response.json().access_token}`;
}

export const credentialHeaders = (partner: Pick<Partner, 'clientId' | 'clientSecret'>) => ({ client_id: String(partner.clientId), client_secret: partner.clientSecret });

/** One HTTP call with any of a session and a partner's credentials. */
export function call(t: TestContext, method: InjectOptions['method'], url: string, options: { session?: string; partner?: Pick<Partner, 'clientId' | 'clientSecret'>; payload?: unknown } = {}) {
  return t.app.inject({
    method,
    url,
    payload: options.payload as InjectOptions['payload'],
    headers: { ...(options.session ? { authorization: options.session } : {}), ...(options.partner ? credentialHeaders(options.partner) : {}) },
  });
}

/** Creates (or reads) the user's integration with the partner; answers its record. */
export async function integrate(t: TestContext, session: string, partner: Partner) {
  const response = await call(t, 'POST', '/api/v1/Notify/Config/Integrations', { session, partner, payload: { partnerAppId: partner.clientId } });
  if (response.statusCode !== 201 && response.statusCode !== 200) throw new Error(`integration: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number; webhookGuid: string; userId: number }>();
}
