import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { WholeListQuery } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';
import { EntityEnum } from '../../shared/entity-enum.js';

/** Spec 9.3: the rebalancing application names the related entity by its own codes. */
export const RelatedType = { Portfolio: 16, Account: 32 } as const;

/** Platform entityEnum (6 Registration, 7 Account) to the rebalancer's relatedType. */
export const relatedTypeOf = (entityEnum: number) => (entityEnum === EntityEnum.Registration ? RelatedType.Portfolio : RelatedType.Account);

const RelatedTypeSchema = Type.Union([Type.Literal(16), Type.Literal(32)], { description: '16 = Portfolio (registration), 32 = Account' });
const IsoDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Description = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });

export const V2Detail = Type.Object({
  id: Type.Integer(),
  globalId: Type.String({ format: 'uuid' }),
  relatedType: Type.Integer({ description: '16 = Portfolio (registration), 32 = Account' }),
  relatedTypeId: Type.Integer(),
  tradeBlockReasonId: Type.Integer(),
  tradeBlockReasonName: Type.String(),
  description: Type.String(),
  startDate: IsoDate,
  endDate: Nullable(IsoDate),
  isDeleted: Type.Boolean(),
  createdBy: Type.String(),
  createdDate: Type.String({ format: 'date-time' }),
  editedBy: Type.String(),
  editedDate: Type.String({ format: 'date-time' }),
});

export const V2Create = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 0, maximum: 0, description: '0 (or omitted) on create' })),
  globalId: Type.Optional(Type.String({ format: 'uuid' })),
  relatedType: RelatedTypeSchema,
  relatedTypeId: IdSchema(),
  tradeBlockReasonId: IdSchema(),
  description: Description,
  startDate: IsoDate,
  endDate: Type.Optional(Nullable(IsoDate)),
});

/** Keyed by id; only description and the dates change, the other fields must match if sent. */
export const V2Update = Type.Object({
  id: IdSchema(),
  relatedType: Type.Optional(RelatedTypeSchema),
  relatedTypeId: Type.Optional(IdSchema()),
  tradeBlockReasonId: Type.Optional(IdSchema()),
  description: Type.Optional(Description),
  startDate: Type.Optional(IsoDate),
  endDate: Type.Optional(Nullable(IsoDate)),
});

export const V2ListQuery = Type.Object({
  relatedType: Type.Optional(RelatedTypeSchema),
  relatedTypeId: Type.Optional(IdSchema()),
  includeDeleted: Type.Boolean({ default: false }),
  ...WholeListQuery.properties,
});

export type V2Detail = Static<typeof V2Detail>;
export type V2Create = Static<typeof V2Create>;
export type V2Update = Static<typeof V2Update>;
export type V2ListQuery = Static<typeof V2ListQuery>;
