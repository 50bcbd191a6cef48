import { Type, type Static } from 'typebox';

/**
 * The token endpoint's answer (sections 5.3-5.5), declared once: the routes' response schema and
 * the services' return type. A Basic login carries no refresh token.
 */
export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer', { description: 'How to send the access token: Authorization: Session <token> (the spec\'s form) or Bearer <token>' }),
  expires_in: Type.Number({ description: 'Lifetime of the access token in seconds' }),
  refresh_token: Type.Optional(Type.String({ description: 'One-time use; rotates on every refresh' })),
});
export type TokenResponse = Static<typeof TokenResponse>;
