import { Type, type Static } from 'typebox';
import { IdSchema } from '../http/ids.js';
import { Nullable } from '../http/nullable.js';

export { type EntityCode, EntityEnum } from '../shared/entity-enum.js';

const NullableString = Nullable(Type.String());

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
    endDate: Nullable(Type.String({ format: 'date' })),
    isDeleted: Type.Boolean(),
    isDisabled: Type.Boolean({ description: 'Outside its date range (only with the start/end date option)' }),
    globalId: Nullable(Type.String({ format: 'uuid' })),
    entityName: NullableString,
    tradeBlockReason: Nullable(ReasonRecord),
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
