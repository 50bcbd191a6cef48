/**
 * Errors of the token endpoint, answered with RFC 6749 section 5.2 bodies
 * (`{ error, error_description }`). Section 5.3 of the spec answers them with 401.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'unauthorized_client'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 401,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
  }
}

/** A problem with the authorize request itself: shown as a page, never redirected (section 7 rule 2). */
export class AuthorizePageError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}
