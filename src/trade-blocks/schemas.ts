import { Type, type Static, type TSchema } from 'typebox';
import { IdSchema } from '../http/ids.js';

/** Spec 2.3: Registration = 6, Account = 7; the only two entity codes trade blocks accept. */
export const EntityEnum = { Registration: 6, Account: 7 } as const;
export type EntityCode = (typeof EntityEnum)[keyof typeof EntityEnum];

// Nullable as a type list, not anyOf: the response serializer would otherwise validate each
// branch per field on every response, which costs more than the read itself on the hot GET.
const nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, type: [(schema as unknown as { type: string }).type, 'null'] });
const NullableString = nullable(Type.String());

export const ReasonRecord = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  globalId: Type.String({ format: 'uuid' }),
  isSystemMaintained: Type.Boolean(),
  allowDetailAssignment: Type.Boolean(),
  rebalancerFirmId: Type.Integer({ description: "The firm's id in the rebalancing application" }),
});
export const SimpleReason = Type.Object({ id: Type.Integer(), name: Type.String() });

export const TradeBlockDetail = Type.Object(
  {
    id: Type.Integer({ description: 'Detail id; 0 on create' }),
    entityEnum: Type.Integer({ description: '6 = Registration, 7 = Account' }),
    entityId: Type.Integer(),
    tradeBlockReasonId: Type.Integer(),
    description: Type.String(),
    startDate: Type.String({ format: 'date' }),
    endDate: nullable(Type.String({ format: 'date' })),
    isDeleted: Type.Boolean(),
    isDisabled: Type.Boolean({ description: 'Outside its date range (only with the start/end date option)' }),
    globalId: nullable(Type.String({ format: 'uuid' })),
    entityName: NullableString,
    tradeBlockReason: nullable(ReasonRecord),
    errorMessage: NullableString,
    createdBy: Type.String(),
    createdDate: Type.String({ format: 'date-time' }),
    editedBy: Type.String(),
    editedDate: Type.String({ format: 'date-time' }),
  },
  { description: 'TradeBlockDetailDto' },
);

/** A failed batch item is the item as sent, plus why it failed. */
export const FailedTradeBlock = Type.Object(
  { errorMessage: Type.String() },
  { additionalProperties: true, description: 'The item as sent, with errorMessage' },
);

export const TradeBlockResult = Type.Object({
  successfulTradeBlocks: Type.Array(TradeBlockDetail),
  failedTradeBlocks: Type.Array(FailedTradeBlock),
});

export const RelatedEntity = Type.Object({
  id: Type.Integer(),
  entityType: Type.Integer({ description: '6 = Registration, 7 = Account' }),
  name: Type.String(),
});

export const HistoryEntry = Type.Object({
  id: Type.Integer(),
  tradeBlockId: Type.Integer(),
  globalId: Type.String(),
  action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete'), Type.Literal('reassign')]),
  version: Type.Integer(),
  changedBy: Type.String(),
  changedDate: Type.String({ format: 'date-time' }),
  tradeBlock: TradeBlockDetail,
});

export const SyncQuery = Type.Object({
  createSyncEvent: Type.Boolean({ default: true, description: 'Publish sync events to the rebalancing application' }),
});

export const EntityQuery = Type.Object({
  entityEnum: Type.Integer({ description: '6 = Registration, 7 = Account; others are 404' }),
  entityId: IdSchema(),
});

/** Items are checked one by one in the service so that one bad item fails alone (rule 2). */
export const BatchBody = Type.Array(Type.Unknown(), { minItems: 1, maxItems: 10000 });

export const ReasonUpdate = Type.Object({
  globalId: Type.Optional(Type.String({ format: 'uuid' })),
  id: Type.Optional(IdSchema()),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  allowDetailAssignment: Type.Optional(Type.Boolean()),
});

export type ReasonRecord = Static<typeof ReasonRecord>;
export type TradeBlockDetail = Static<typeof TradeBlockDetail>;
export type FailedTradeBlock = { errorMessage: string; [field: string]: unknown };
export type TradeBlockResult = { successfulTradeBlocks: TradeBlockDetail[]; failedTradeBlocks: FailedTradeBlock[] };
export type RelatedEntity = Static<typeof RelatedEntity>;
export type HistoryEntry = Static<typeof HistoryEntry>;
export type ReasonUpdate = Static<typeof ReasonUpdate>;
