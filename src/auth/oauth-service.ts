import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { AuthorizePageError, OAuthError } from './oauth-errors.js';
import type { AuthRepository } from './repository.js';
import { digest, newToken, seal, unseal } from './secrets.js';
import type { TokenResponse } from './schemas.js';
import type { AuthService } from './service.js';
import { LockedOut } from './throttle.js';

/** What a code exchange or a refresh answers: the token response with every field present. */
export type TokenSet = Required<TokenResponse>;

export interface AuthorizeRequest {
  clientId?: string;
  responseType?: string;
  redirectUri?: string;
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

const FLOW_LIFETIME_MS = 15 * 60 * 1000;
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const PKCE_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The authorization-code flow with PKCE and rotating refresh tokens (RFC 6749, RFC 9700):
 * codes are single use and short-lived; each refresh voids the token it used; presenting a used
 * code or refresh token again revokes everything issued from the same authorization (its chain).
 */
export class OAuthService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly auth: AuthService,
    private readonly clock: Clock,
    private readonly codeTtlSeconds: number,
    /** How long after a refresh token's use the same token still returns the same successor pair. */
    private readonly refreshGraceSeconds = 5,
    /** The token endpoint's full path, named to API accounts that try the sign-in page. */
    private readonly tokenPath = '/api/v1/security/token',
  ) {}

  /** Revokes a chain and drops remembered sessions, so its access tokens stop working at once. */
  private async revokeChain(chainId: string, now: string) {
    await this.repository.revokeChain(chainId, now);
  }

  private nowIso() {
    return this.clock.now().toISOString();
  }

  /** Checks the authorize request and opens a sign-in flow for the browser. */
  async startFlow(request: AuthorizeRequest) {
    const missing = (['clientId', 'responseType', 'redirectUri'] as const).filter((k) => !request[k]);
    if (missing.length > 0) {
      const names = missing.map((k) => ({ clientId: 'client_id', responseType: 'response_type', redirectUri: 'redirect_uri' })[k]);
      throw new AuthorizePageError(401, `The sign-in request is missing ${names.join(', ')}.`);
    }
    if (request.responseType !== 'code') throw new AuthorizePageError(401, 'response_type must be "code".');
    const app = /^\d+$/.test(request.clientId!) ? await this.repository.findPartnerApp(Number(request.clientId)) : undefined;
    if (!app || app.is_active !== 1) throw new AuthorizePageError(401, 'The client_id is not a registered application.');
    const registered = JSON.parse(app.redirect_uris) as string[];
    // Exact match only: no trailing-slash, case, query, port or scheme leniency (RFC 9700 4.1.3).
    if (!registered.includes(request.redirectUri!)) {
      throw new AuthorizePageError(401, 'Could not create authentication code: the redirect_uri is missing or not registered for this application.');
    }
    if (request.codeChallenge !== undefined || request.codeChallengeMethod !== undefined) {
      if (request.codeChallengeMethod !== 'S256') throw new AuthorizePageError(401, 'code_challenge_method must be S256.');
      if (!request.codeChallenge || !PKCE_CHALLENGE.test(request.codeChallenge)) {
        throw new AuthorizePageError(401, 'code_challenge must be a base64url SHA-256 digest (43 characters).');
      }
    }
    const now = this.clock.now();
    await this.repository.deleteExpiredFlows(now.toISOString());
    const flow = {
      id: newToken(),
      firm_id: app.firm_id,
      client_id: app.id,
      redirect_uri: request.redirectUri!,
      state: request.state ?? null,
      code_challenge: request.codeChallenge ?? null,
      csrf_token: newToken(),
      user_id: null,
      expires_at: new Date(now.getTime() + FLOW_LIFETIME_MS).toISOString(),
      created_at: now.toISOString(),
    };
    await this.repository.insertFlow(flow);
    return { flowId: flow.id, csrf: flow.csrf_token, appName: app.name };
  }

  private async flow(flowId: string | undefined, csrf: string | undefined) {
    const flow = flowId ? await this.repository.findFlow(flowId, this.nowIso()) : undefined;
    if (!flow) throw new AuthorizePageError(400, 'This sign-in has expired. Start again from the application.');
    if (!csrf || !sameText(flow.csrf_token, csrf)) throw new AuthorizePageError(403, 'The form could not be verified. Start again from the application.');
    const app = await this.repository.findPartnerApp(flow.client_id);
    return { flow, appName: app?.name ?? 'the application' };
  }

  /** Returns an error message for the form, or undefined when the user is signed in to the flow. */
  async signIn(input: { flowId?: string; csrf?: string; userName: string; password: string; address: string }) {
    const { flow, appName } = await this.flow(input.flowId, input.csrf);
    let user;
    try {
      user = await this.auth.checkCredentials(input.userName, input.password, input.address, (u) => u.firm_id === flow.firm_id);
    } catch (error) {
      if (error instanceof LockedOut) return { error: error.message, appName };
      throw error;
    }
    if (!user) return { error: 'The user name or password is not correct.', appName };
    if (user.kind !== 'user') {
      return { error: `API and service accounts cannot sign in here; they log in with Basic credentials at ${this.tokenPath}.`, appName };
    }
    await this.repository.setFlowUser(flow.id, user.id);
    return { error: undefined, appName, userName: user.display_name };
  }

  /** Allow or deny; returns the URL to redirect the browser to. */
  async decide(input: { flowId?: string; csrf?: string; allow: boolean }): Promise<string> {
    const { flow } = await this.flow(input.flowId, input.csrf);
    if (flow.user_id === null) throw new AuthorizePageError(400, 'Sign in first.');
    await this.repository.deleteFlow(flow.id);
    const target = new URL(flow.redirect_uri);
    if (!input.allow) {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = newToken();
      const now = this.clock.now();
      await this.repository.insertCode({
        firm_id: flow.firm_id,
        code_hash: digest(code),
        client_id: flow.client_id,
        user_id: flow.user_id,
        redirect_uri: flow.redirect_uri,
        code_challenge: flow.code_challenge,
        chain_id: randomUUID(),
        expires_at: new Date(now.getTime() + this.codeTtlSeconds * 1000).toISOString(),
        created_at: now.toISOString(),
      });
      target.searchParams.set('code', code);
    }
    if (flow.state !== null) target.searchParams.set('state', flow.state);
    return target.toString();
  }

  private async client(clientId: string | undefined, clientSecret: string | undefined) {
    try {
      return await this.auth.verifyPartner(clientId, clientSecret);
    } catch {
      throw new OAuthError('invalid_client', 'client_id or client_secret is not valid');
    }
  }

  async exchangeCode(params: { code?: string; clientId?: string; clientSecret?: string; redirectUri?: string; responseType?: string; codeVerifier?: string }): Promise<TokenSet> {
    const required = { code: params.code, client_id: params.clientId, client_secret: params.clientSecret, redirect_uri: params.redirectUri };
    const missing = Object.entries(required).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length > 0) throw new OAuthError('invalid_request', `missing or empty: ${missing.join(', ')}`);
    if (params.responseType !== undefined && params.responseType !== 'code') throw new OAuthError('invalid_request', 'response_type must be "code"');
    const app = await this.client(params.clientId, params.clientSecret);
    const code = await this.repository.findCode(digest(params.code!));
    if (!code || code.client_id !== app.id) throw new OAuthError('invalid_grant', 'the authorization code is not valid');
    const now = this.nowIso();
    if (code.redeemed_at !== null) {
      await this.revokeChain(code.chain_id, now);
      throw new OAuthError('invalid_grant', 'the authorization code was already used; the tokens issued from it are revoked');
    }
    if (code.expires_at <= now) throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (code.redirect_uri !== params.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request');
    if (code.code_challenge !== null) {
      if (!params.codeVerifier || !PKCE_VERIFIER.test(params.codeVerifier) || !sameText(s256(params.codeVerifier), code.code_challenge)) {
        throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
      }
    } else if (params.codeVerifier !== undefined) {
      throw new OAuthError('invalid_grant', 'a code_verifier was sent but the authorization request had no code_challenge');
    }
    return this.repository.transaction(async (repository) => {
      if (!(await repository.redeemCode(code.id, now))) {
        throw new OAuthError('invalid_grant', 'the authorization code was already used');
      }
      return this.issue(repository, { firmId: code.firm_id, userId: code.user_id, clientId: app.id, chainId: code.chain_id }, app);
    });
  }

  async refresh(params: { refreshToken?: string; clientId?: string; clientSecret?: string }): Promise<TokenSet> {
    const missing = Object.entries({ refresh_token: params.refreshToken, client_id: params.clientId, client_secret: params.clientSecret })
      .filter(([, v]) => !v)
      .map(([k]) => k);
    if (missing.length > 0) throw new OAuthError('invalid_request', `missing or empty: ${missing.join(', ')}`);
    const app = await this.client(params.clientId, params.clientSecret);
    const token = await this.repository.findRefreshToken(digest(params.refreshToken!));
    if (!token || token.client_id !== app.id) throw new OAuthError('invalid_grant', 'the refresh token is not valid');
    const now = this.nowIso();
    if (token.used_at !== null || token.revoked_at !== null) return this.reused(token, params.refreshToken!);
    if (token.expires_at <= now) throw new OAuthError('invalid_grant', 'the refresh token has expired');
    const user = await this.repository.findUser(token.user_id);
    if (!user || user.is_active !== 1) throw new OAuthError('invalid_grant', 'the user is no longer active');
    const issued = await this.repository.transaction(async (repository) => {
      if (!(await repository.useRefreshToken(token.id, now))) return undefined;
      const pair = await this.issue(repository, { firmId: token.firm_id, userId: token.user_id, clientId: app.id, chainId: token.chain_id }, app);
      const expiresAt = this.clock.now().getTime() + pair.expires_in * 1000;
      await repository.storeSuccessor(token.id, seal(params.refreshToken!, JSON.stringify({ ...pair, expiresAt })));
      return pair;
    });
    if (issued) return issued;
    // Another request used the same token first (it committed while this one waited on it).
    const settled = await this.repository.findRefreshToken(token.token_hash);
    return this.reused(settled ?? token, params.refreshToken!);
  }

  /**
   * A refresh token presented after its use. Within the grace period and with its successor on
   * record, it is the same client racing itself (a retry, two tabs): it gets the same successor
   * pair and the session lives on. Later, or once revoked, it may have been stolen: the whole chain
   * is revoked (RFC 9700 section 4.14).
   */
  private async reused(token: { chain_id: string; used_at: string | null; revoked_at: string | null; successor_sealed: string | null }, presented: string): Promise<TokenSet> {
    const now = this.clock.now().getTime();
    const inGrace = token.revoked_at === null && token.used_at !== null && now - Date.parse(token.used_at) <= this.refreshGraceSeconds * 1000;
    const successor = inGrace && token.successor_sealed ? unseal(presented, token.successor_sealed) : undefined;
    if (successor) {
      const { expiresAt, ...pair } = JSON.parse(successor) as TokenSet & { expiresAt: number };
      return { ...pair, expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) };
    }
    await this.revokeChain(token.chain_id, new Date(now).toISOString());
    throw new OAuthError('invalid_grant', 'the refresh token was already used or revoked; its chain is revoked');
  }

  private async issue(
    repository: AuthRepository,
    owner: { firmId: number; userId: number; clientId: number; chainId: string },
    app: { access_token_ttl_seconds: number; refresh_token_ttl_seconds: number },
  ): Promise<TokenSet> {
    const now = this.clock.now();
    const access = await this.auth.issueAccessToken(owner, app.access_token_ttl_seconds, 'platform', owner.chainId, repository);
    const refreshToken = newToken();
    await repository.insertRefreshToken({
      firm_id: owner.firmId,
      token_hash: digest(refreshToken),
      client_id: owner.clientId,
      user_id: owner.userId,
      chain_id: owner.chainId,
      expires_at: new Date(now.getTime() + app.refresh_token_ttl_seconds * 1000).toISOString(),
      created_at: now.toISOString(),
    });
    await repository.revokeOtherRefreshTokens(owner.userId, owner.clientId, owner.chainId, now.toISOString());
    return { access_token: access.access_token, token_type: 'Bearer', expires_in: access.expires_in, refresh_token: refreshToken };
  }
}
