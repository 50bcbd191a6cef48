import { Type } from 'typebox';

export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String(),
    expires_in: Type.Number({ description: 'Lifetime of the access token in seconds' }),
  },
  { additionalProperties: true },
);

export const BasicLoginHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Basic base64(userName:password)' })),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
});
