import { DomainError } from '../../shared/errors.js';
import { type Clock, isoNow } from '../../shared/clock.js';
import type { AuthRepository } from './repository.js';
import { OAuthError } from './oauth-errors.js';
import { digest, matchesDigest, newToken, verifyPassword } from './secrets.js';
import { LockedOut, type SignInThrottle } from './throttle.js';

export interface Principal {
  userId: number;
  firmId: number;
  userName: string;
  kind: 'user' | 'api' | 'service';
  clientId: number | null;
  privileges: ReadonlySet<string>;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
}

const unauthorized = (why: string) => new DomainError('unauthorized', why);

const PRINCIPAL_CACHE_MS = 5_000;
const PRINCIPAL_CACHE_SIZE = 10_000;

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
  ) {}

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
   * refresh token: a job holding a password can always log in again (docs/decisions.md).
   */
  async basicLogin(input: { authorization?: string; clientId?: string; clientSecret?: string; address: string }): Promise<TokenResponse> {
    let app;
    try {
      app = await this.verifyPartner(input.clientId, input.clientSecret);
    } catch {
      throw new OAuthError('invalid_client', 'client_id or client_secret is missing or not valid');
    }
    const credentials = parseBasic(input.authorization);
    if (!credentials) throw new OAuthError('invalid_request', 'Authorization: Basic credentials are required');
    try {
      await this.throttle.check(credentials.userName, input.address);
    } catch (error) {
      if (error instanceof LockedOut) throw new OAuthError('temporarily_unavailable', error.message, 429, error.retryAfterSeconds);
      throw error;
    }
    const user = await this.repository.findUserByName(credentials.userName);
    const passwordOk = user ? await verifyPassword(user.password_hash, credentials.password) : false;
    // A partner application serves the firm that registered it; another firm's user is refused alike.
    if (!user || !passwordOk || user.is_active !== 1 || user.firm_id !== app.firm_id) {
      await this.throttle.failed(credentials.userName, input.address);
      throw new OAuthError('invalid_grant', 'user name or password is not valid');
    }
    await this.throttle.succeeded(credentials.userName);
    return this.issueAccessToken({ firmId: user.firm_id, userId: user.id, clientId: app.id }, app.access_token_ttl_seconds);
  }

  /**
   * Section 5.6 and 9.4: the rebalancing application takes its own tokens. One is issued for the
   * holder of a live platform token, or for Basic user credentials.
   */
  async rebalancerToken(input: { authorization?: string; address: string }): Promise<TokenResponse> {
    const session = parseSessionToken(input.authorization);
    if (session) {
      const principal = await this.authenticate(session, 'platform');
      if (!principal) throw unauthorized('the platform token is not valid or has expired');
      return this.issueAccessToken({ firmId: principal.firmId, userId: principal.userId, clientId: principal.clientId }, undefined, 'rebalancer');
    }
    const credentials = parseBasic(input.authorization);
    if (!credentials) throw unauthorized('send Authorization: Session <platform token> or Basic credentials');
    await this.throttle.check(credentials.userName, input.address);
    const user = await this.repository.findUserByName(credentials.userName);
    const ok = user !== undefined && user.is_active === 1 && (await verifyPassword(user.password_hash, credentials.password));
    if (!user || !ok) {
      await this.throttle.failed(credentials.userName, input.address);
      throw unauthorized('user name or password is not valid');
    }
    await this.throttle.succeeded(credentials.userName);
    return this.issueAccessToken({ firmId: user.firm_id, userId: user.id, clientId: null }, undefined, 'rebalancer');
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
    return { access_token: token, expires_in: ttlSeconds };
  }

  /**
   * Resolved tokens are remembered for a few seconds: a token check per request would otherwise
   * cost more than most reads. A revocation through this process clears the memory at once;
   * another node's revocation is seen within PRINCIPAL_CACHE_MS.
   */
  private readonly principals = new Map<string, { principal: Principal; until: number; expiresAt: number }>();

  forgetSessions() {
    this.principals.clear();
  }

  async authenticate(token: string, audience: 'platform' | 'rebalancer'): Promise<Principal | undefined> {
    const key = `${audience}:${digest(token)}`;
    const now = this.clock.now().getTime();
    const cached = this.principals.get(key);
    if (cached && cached.until > now && cached.expiresAt > now) return cached.principal;
    const owner = await this.repository.findLiveToken(key.slice(audience.length + 1), audience, isoNow(this.clock));
    if (!owner) {
      this.principals.delete(key);
      return undefined;
    }
    const principal: Principal = {
      userId: owner.userId,
      firmId: owner.firmId,
      userName: owner.userName,
      kind: owner.kind,
      clientId: owner.clientId,
      privileges: new Set(owner.privileges),
    };
    if (this.principals.size >= PRINCIPAL_CACHE_SIZE) this.principals.delete(this.principals.keys().next().value!);
    this.principals.set(key, { principal, until: now + PRINCIPAL_CACHE_MS, expiresAt: Date.parse(owner.expiresAt) });
    return principal;
  }
}
