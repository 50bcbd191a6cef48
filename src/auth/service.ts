import { DomainError } from '../shared/errors.js';
import { type Clock, isoNow } from '../shared/clock.js';
import type { AuthRepository, UserRow } from './repository.js';
import { OAuthError } from './oauth-errors.js';
import { digest, matchesDigest, newToken, verifyUserPassword } from './secrets.js';
import type { TokenResponse } from './schemas.js';
import { LockedOut, type SignInThrottle } from './throttle.js';

export interface Principal {
  userId: number;
  firmId: number;
  userName: string;
  kind: 'user' | 'api' | 'service';
  clientId: number | null;
  privileges: ReadonlySet<string>;
}


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
   */
  async basicLogin(input: { authorization?: string; clientId?: string; clientSecret?: string; address: string }): Promise<TokenResponse> {
    if (!input.clientId && !input.clientSecret) return this.basicOnlyLogin(input.authorization, input.address);
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
    return this.issueAccessToken({ firmId: user.firm_id, userId: user.id, clientId: app.id }, app.access_token_ttl_seconds);
  }

  /**
   * Basic credentials alone, as the source system's clients send them: only for API and service
   * users of a firm that chose it, through the partner app it named (docs/partner-migration.md).
   * Every refusal reads like section 5.5's missing client, so it tells nothing of the password.
   */
  private async basicOnlyLogin(authorization: string | undefined, address: string): Promise<TokenResponse> {
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
    const user = await this.checkCredentials(credentials.userName, credentials.password, input.address);
    if (!user) throw unauthorized('user name or password is not valid');
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
   * Every request resolves its token with one indexed query, on whatever process it reaches: a
   * deactivated user, a changed password or a revoked partner app is refused on the very next
   * request everywhere. (A per-process cache would leave other processes a window.)
   */
  async authenticate(token: string, audience: 'platform' | 'rebalancer'): Promise<Principal | undefined> {
    const owner = await this.repository.findLiveToken(digest(token), audience, isoNow(this.clock));
    if (!owner) return undefined;
    return {
      userId: owner.userId,
      firmId: owner.firmId,
      userName: owner.userName,
      kind: owner.kind,
      clientId: owner.clientId,
      privileges: new Set(owner.privileges),
    };
  }
}
