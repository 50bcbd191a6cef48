import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../src/shared/clock.js';

/** A clock tests can move forward. */
export function fakeClock(start = Date.now()): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => void (now += ms) };
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

export function csrfOf(html: string): string {
  const match = html.match(/name="csrf" value="([^"]+)"/);
  if (!match?.[1]) throw new Error(`no csrf token in page: ${html.slice(0, 300)}`);
  return match[1];
}

export interface FlowOptions {
  clientId: number;
  redirectUri: string;
  userName: string;
  password: string;
  state?: string;
  codeChallenge?: string;
  decision?: 'allow' | 'deny';
}

/** Walks the sign-in page, the consent page and the redirect, as a browser would. */
export async function authorize(app: FastifyInstance, options: FlowOptions) {
  const query = new URLSearchParams({ response_type: 'code', client_id: String(options.clientId), redirect_uri: options.redirectUri, state: options.state ?? 'xyz' });
  if (options.codeChallenge) {
    query.set('code_challenge', options.codeChallenge);
    query.set('code_challenge_method', 'S256');
  }
  const start = await app.inject({ url: `/api/oauth/?${query}` });
  if (start.statusCode !== 200) throw new Error(`sign-in page: ${start.statusCode} ${start.body}`);
  const cookie = String(start.headers['set-cookie']).split(';')[0]!;
  const csrf = csrfOf(start.body);
  const signIn = await app.inject({
    method: 'POST',
    url: '/api/oauth/signin',
    headers: { ...FORM, cookie },
    payload: form({ csrf, username: options.userName, password: options.password }),
  });
  if (signIn.statusCode !== 200) return { signIn, cookie, csrf, code: undefined, location: undefined };
  const consent = await app.inject({
    method: 'POST',
    url: '/api/oauth/consent',
    headers: { ...FORM, cookie },
    payload: form({ csrf, decision: options.decision ?? 'allow' }),
  });
  const location = consent.headers.location ? new URL(String(consent.headers.location)) : undefined;
  return { signIn, consent, cookie, csrf, location, code: location?.searchParams.get('code') ?? undefined };
}

export async function exchange(app: FastifyInstance, fields: Record<string, string>, as: 'form' | 'query' | 'headers' = 'form') {
  if (as === 'form') return app.inject({ method: 'POST', url: '/api/v1/Security/Token', headers: FORM, payload: form(fields) });
  if (as === 'query') return app.inject({ method: 'POST', url: `/api/v1/Security/Token?${form(fields)}` });
  return app.inject({ method: 'POST', url: '/api/v1/Security/Token', headers: fields });
}
