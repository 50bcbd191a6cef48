import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Nullable } from '../../http/nullable.js';
import { WholeListQuery } from '../../http/paging.js';

export const SubstitutionCreate = Type.Object(
  {
    productId: IdSchema({ description: 'The model product a rebalance replaces' }),
    substituteProductId: IdSchema({ description: 'The product it buys and holds instead; never the product itself, nor a product with a substitute of its own' }),
    accountId: Nullable(IdSchema(), { description: 'The account the substitution is for; null: every account of the firm (an account\'s own substitution of the product wins)' }),
  },
  { additionalProperties: false, description: 'A substitution to add; an unknown field is refused rather than ignored', examples: [{ productId: 40210, substituteProductId: 40233, accountId: null }] },
);

export const Substitution = Type.Object(
  {
    id: Type.Integer(),
    scope: Type.Union([Type.Literal('Firm'), Type.Literal('Account')], { description: 'Firm: every account without its own substitution of the product; Account: the one account' }),
    productId: Type.Integer(),
    productTicker: Type.String(),
    substituteProductId: Type.Integer(),
    substituteTicker: Type.String(),
    accountId: Nullable(Type.Integer()),
    accountNumber: Nullable(Type.String()),
  },
  { examples: [{ id: 4, scope: 'Firm', productId: 40210, productTicker: 'BND', substituteProductId: 40233, substituteTicker: 'AGG', accountId: null, accountNumber: null }] },
);

export const SubstitutionsQuery = Type.Object({
  accountId: Type.Optional(IdSchema({ description: 'The account\'s own substitutions (not the firm\'s it also sees)' })),
  productId: Type.Optional(IdSchema({ description: 'Substitutions of this product' })),
  substituteProductId: Type.Optional(IdSchema({ description: 'Substitutions that buy this product' })),
  scope: Type.Optional(Type.Union([Type.Literal('Firm'), Type.Literal('Account')], { description: 'Firm: the firm-wide ones; Account: those of accounts' })),
  ...WholeListQuery.properties,
});

export const SubstitutionParams = Type.Object({ id: IdSchema() });

export type SubstitutionCreate = Static<typeof SubstitutionCreate>;
