import { randomUUID } from 'node:crypto';
import { DomainError } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import type { AuthRepository, UserRow } from './repository.js';
import type { TokenCache } from './token-cache.js';
import { OAuthError } from './oauth-errors.js';
import { digest, matchesDigest, newToken, verifyUserPassword } from './secrets.js';
import type { TokenResponse } from './schemas.js';
import { LockedOut, type SignInThrottle } from './throttle.js';

import type { Principal } from './principal.js';

export type { Principal } from './principal.js';


const unauthorized = (why: string) => new DomainError('unauthorized', why);


/** Parses `Basic base64(user:password)`; the password may itself contain colons. */
export function parseBasic(header: string | undefined): { userName: string; password: string } | undefined {
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { userName: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** `Session <token>` is the spec's form; `Bearer <token>` is accepted because real clients send it. */
export function parseSessionToken(header: string | undefined): string | undefined {
  const match = header?.match(/^(?:Session|Bearer)\s+(\S+)\s*$/i);
  return match?.[1];
}

export class AuthService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    private readonly defaultAccessTtlSeconds: number,
    private readonly throttle: SignInThrottle,
    private readonly tokens: TokenCache,
  ) {}

  /**
   * The one password check of every login path (Basic, the rebalancer's Basic, the sign-in page):
   * throttled, counted when it fails, and as costly for an unknown user name as for a known one.
   * `accept` adds the path's own conditions (the partner's firm); a refusal by it counts as a failure.
   */
  async checkCredentials(userName: string, password: string, address: string, accept: (user: UserRow) => boolean | Promise<boolean> = () => true) {
    await this.throttle.check(userName, address);
    const user = await this.repository.findUserByName(userName);
    const ok = await verifyUserPassword(user?.password_hash, password);
    if (!user || !ok || user.is_active !== 1 || !(await accept(user))) {
      await this.throttle.failed(userName, address);
      return undefined;
    }
    await this.throttle.succeeded(userName, address);
    return user;
  }

  /** Checks a partner's client_id/client_secret pair; every failure reads the same to the caller. */
  async verifyPartner(clientId: string | undefined, clientSecret: string | undefined) {
    if (!clientId || !/^\d+$/.test(clientId) || !clientSecret) {
      throw unauthorized('client_id and client_secret are required');
    }
    const app = await this.repository.findPartnerApp(Number(clientId));
    if (!app || app.is_active !== 1 || !matchesDigest(app.client_secret_hash, clientSecret)) {
      throw unauthorized('client_id or client_secret is not valid');
    }
    return app;
  }

  /**
   * Section 5.5: Basic credentials plus the partner's client_id and client_secret. It returns no
   * refresh token: a job holding a password can always log in again (docs/decisions/authentication.md).
   * The one password login of both applications: the rebalancer's Basic login (rebalancerToken)
   * comes here too, so a rule of who may log in how holds for either audience alike. Each login
   * opens a session chain of its own, which tokens minted from this one join.
   */
  async basicLogin(input: { authorization?: string; clientId?: string; clientSecret?: string; address: string }, audience: 'platform' | 'rebalancer' = 'platform'): Promise<TokenResponse> {
    if (!input.clientId && !input.clientSecret) return this.basicOnlyLogin(input.authorization, input.address, audience);
    let app;
    try {
      app = await this.verifyPartner(input.clientId, input.clientSecret);
    } catch {
      throw new OAuthError('invalid_client', 'client_id or client_secret is missing or not valid');
    }
    const credentials = parseBasic(input.authorization);
    if (!credentials) throw new OAuthError('invalid_request', 'Authorization: Basic credentials are required');
    let user;
    try {
      // A partner application serves the firm that registered it; another firm's user is refused alike.
      user = await this.checkCredentials(credentials.userName, credentials.password, input.address, (u) => u.firm_id === app.firm_id);
    } catch (error) {
      if (error instanceof LockedOut) throw new OAuthError('temporarily_unavailable', error.message, 429, error.retryAfterSeconds);
      throw error;
    }
    if (!user) throw new OAuthError('invalid_grant', 'user name or password is not valid');
    return this.issueAccessToken({ firmId: user.firm_id, userId: user.id, clientId: app.id }, app.access_token_ttl_seconds, audience, randomUUID());
  }

  /**
   * Basic credentials alone, as the source system's clients send them: only for API and service
   * users of a firm that chose it, through the partner app it named (docs/partner-migration.md).
   * Every refusal reads like section 5.5's missing client, so it tells nothing of the password.
   */
  private async basicOnlyLogin(authorization: string | undefined, address: string, audience: 'platform' | 'rebalancer'): Promise<TokenResponse> {
    const refused = new OAuthError('invalid_client', 'client_id or client_secret is missing or not valid');
    const credentials = parseBasic(authorization);
    if (!credentials) throw refused;
    let app: Awaited<ReturnType<AuthRepository['basicLoginAppOf']>>;
    let user;
    try {
      user = await this.checkCredentials(credentials.userName, credentials.password, address, async (u) => {
        if (u.kind === 'user') return false;
        app = await this.repository.basicLoginAppOf(u.firm_id);
        return app !== undefined;
      });
    } catch (error) {
      if (error instanceof LockedOut) throw new OAuthError('temporarily_unavailable', error.message, 429, error.retryAfterSeconds);
      throw error;
    }
    if (!user || !app) throw refused;
    return this.issueAccessToken({ firmId: user.firm_id, userId: user.id, clientId: app.id }, app.access_token_ttl_seconds, audience, randomUUID());
  }

  /**
   * Section 5.6 and 9.4: the rebalancing application takes its own tokens. One is issued for the
   * holder of a live platform token, or for a Basic login under exactly the platform's rules
   * (basicLogin: the partner's client_id and client_secret, or the firm's Basic-alone setting).
   * A token minted from a platform token belongs to its session: it joins the parent's chain (and
   * dies when the chain is revoked) and expires no later than the parent.
   */
  async rebalancerToken(input: { authorization?: string; clientId?: string; clientSecret?: string; address: string }): Promise<TokenResponse> {
    const session = parseSessionToken(input.authorization);
    if (session) {
      const now = this.clock.now();
      const parent = await this.repository.findLiveToken(digest(session), 'platform', now.toISOString());
      const remaining = parent ? Math.floor((Date.parse(parent.expiresAt) - now.getTime()) / 1000) : 0;
      if (!parent || remaining < 1) throw unauthorized('the platform token is not valid or has expired');
      return this.issueAccessToken(
        { firmId: parent.firmId, userId: parent.userId, clientId: parent.clientId },
        Math.min(this.defaultAccessTtlSeconds, remaining),
        'rebalancer',
        parent.chainId,
      );
    }
    if (!parseBasic(input.authorization)) throw unauthorized('send Authorization: Session <platform token>, or Basic credentials with client_id and client_secret');
    try {
      return await this.basicLogin({ authorization: input.authorization, clientId: input.clientId, clientSecret: input.clientSecret, address: input.address }, 'rebalancer');
    } catch (error) {
      // The rebalancer answers problem bodies, not OAuth ones: the same refusal in its own words.
      if (!(error instanceof OAuthError)) throw error;
      if (error.retryAfterSeconds !== undefined) throw new LockedOut(error.retryAfterSeconds);
      throw unauthorized(error.description);
    }
  }

  async issueAccessToken(
    owner: { firmId: number; userId: number; clientId: number | null },
    ttlSeconds = this.defaultAccessTtlSeconds,
    audience: 'platform' | 'rebalancer' = 'platform',
    chainId: string | null = null,
    repository: AuthRepository = this.repository,
  ): Promise<TokenResponse> {
    const token = newToken();
    const now = this.clock.now();
    await repository.insertAccessToken({
      firmId: owner.firmId,
      userId: owner.userId,
      clientId: owner.clientId,
      chainId,
      audience,
      tokenHash: digest(token),
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      createdAt: now.toISOString(),
    });
    return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
  }

  /**
   * The caller of a token the cache knows, without waiting: the request hook answers most requests
   * from here in the same tick, and asks `authenticate` only for the rest.
   */
  cachedPrincipal(token: string, audience: 'platform' | 'rebalancer'): Principal | undefined {
    return this.tokens.get(cacheKey(digest(token), audience), this.clock.now().getTime())?.principal;
  }

  /**
   * A request's token, from the process's token cache when it can answer (token-cache.ts), else
   * with one indexed query whose answer it keeps. Whatever takes access away (a revoked token or
   * chain, a deactivated user, a new password, a revoked partner app) reaches every process's
   * cache before the next request (revocations.ts), or the cache does not answer at all.
   */
  async authenticate(token: string, audience: 'platform' | 'rebalancer'): Promise<Principal | undefined> {
    const tokenHash = digest(token);
    const key = cacheKey(tokenHash, audience);
    const now = this.clock.now();
    const cached = this.tokens.get(key, now.getTime());
    if (cached) return cached.principal;
    const ticket = this.tokens.ticket();
    const owner = await this.repository.findLiveToken(tokenHash, audience, now.toISOString());
    if (!owner) return undefined;
    const principal: Principal = {
      userId: owner.userId,
      firmId: owner.firmId,
      userName: owner.userName,
      kind: owner.kind,
      clientId: owner.clientId,
      privileges: new Set(owner.privileges),
    };
    this.tokens.store(key, { principal, tokenId: owner.tokenId, chainId: owner.chainId, expiresAt: Date.parse(owner.expiresAt) }, ticket);
    return principal;
  }
}

/** A token's place in the cache: its digest, told apart by the application it was issued for. */
function cacheKey(tokenHash: string, audience: 'platform' | 'rebalancer'): string {
  return audience === 'platform' ? `p${tokenHash}` : `r${tokenHash}`;
}
