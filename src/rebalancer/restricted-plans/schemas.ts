import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Skip, Top } from '../../http/paging.js';
import { Nullable } from '../../http/nullable.js';

const Flag = Type.Integer({ minimum: 0, maximum: 1, description: '1 for yes, 0 for no (responses always use 0/1)' });
const NullableInt = Nullable(Type.Integer());
const NullableText = Nullable(Type.String());
const PriorityText = Type.Optional(Nullable(Type.String({ maxLength: 100 })));

export const PlanSecurityInput = Type.Object({
  securityId: IdSchema({ description: 'A product id of the firm' }),
  doNotBuyGroupEquivalency: Type.Optional(Type.Boolean({ description: 'When true the security is not bought in accounts without a plan' })),
  buyPriorityId: Type.Optional(NullableInt),
  buyPriority: PriorityText,
  sellPriorityId: Type.Optional(NullableInt),
  sellPriority: PriorityText,
});

const PlanFields = {
  name: Type.String({ maxLength: 200 }),
  useInTradeFile: Type.Optional(Type.Boolean({ description: 'Trades go to a restricted plan file instead of the custodian trade file' })),
  externalPlanId: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
};

export const PlanCreate = Type.Object({
  id: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 0 }), { description: 'null (or 0, or omitted) on create' })),
  ...PlanFields,
  securities: Type.Object({ securities: Type.Array(PlanSecurityInput, { maxItems: 10000 }) }),
});

export const PlanUpdate = Type.Object({
  id: IdSchema(),
  ...PlanFields,
  securities: Type.Object({
    securities: Type.Array(PlanSecurityInput, { maxItems: 10000 }),
    deletedSecurities: Type.Array(IdSchema(), { maxItems: 10000, description: 'Security ids to remove; may be empty' }),
  }),
});

const Audit = { createdBy: Type.String(), editedBy: Type.String(), createdOn: Type.String(), editedOn: Type.String() };

export const PlanSecurityRecord = Type.Object({
  securityId: Type.Integer(),
  securityName: Type.String(),
  securitySymbol: Type.String(),
  type: Type.String(),
  class: NullableText,
  subClass: NullableText,
  category: NullableText,
  doNotBuyGroupEquivalency: Flag,
  buyPriorityId: NullableInt,
  buyPriority: NullableText,
  sellPriorityId: NullableInt,
  sellPriority: NullableText,
  ...Audit,
});

export const PlanListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  useInTradeFile: Flag,
  accountCount: Type.Integer(),
  externalPlanId: NullableText,
  ...Audit,
});

export const PlanDetail = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  useInTradeFile: Flag,
  externalPlanId: NullableText,
  securities: Type.Array(PlanSecurityRecord),
});

export const PlanQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Plans whose name contains the text, any case' })),
  id: Type.Optional(IdSchema()),
  externalPlanId: Type.Optional(Type.String({ maxLength: 100 })),
  $top: Top(),
  $skip: Skip(),
});
export const PlanIdQuery = Type.Object({ id: IdSchema() });
export const DeleteResult = Type.Object({ id: Type.String(), message: Type.String() });

export type PlanSecurityInput = Static<typeof PlanSecurityInput>;
export type PlanCreate = Static<typeof PlanCreate>;
export type PlanUpdate = Static<typeof PlanUpdate>;
export type PlanSecurityRecord = Static<typeof PlanSecurityRecord>;
export type PlanListItem = Static<typeof PlanListItem>;
export type PlanDetail = Static<typeof PlanDetail>;
