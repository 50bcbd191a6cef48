import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/nullable.js';

export const TRANSACTION_TYPES = ['Distribution', 'MergeOut', 'Fee', 'Contribution', 'Dividend', 'Interest', 'Other'] as const;

export const TransactionInput = Type.Object({
  type: Type.Union(TRANSACTION_TYPES.map((t) => Type.Literal(t)), { description: 'Distribution, MergeOut and Fee expire Transaction-type set aside cash' }),
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e13, description: 'US dollars, positive' }),
  tradeDate: Type.String({ format: 'date', description: 'YYYY-MM-DD' }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});

export const TransactionRecord = Type.Object({
  id: Type.Integer(),
  accountId: Type.Integer(),
  type: Type.String(),
  amount: Type.Number(),
  tradeDate: Type.String(),
  description: Nullable(Type.String()),
  createdOn: Type.String(),
  createdBy: Type.String(),
});

export const RecordedTransaction = Type.Object({
  ...TransactionRecord.properties,
  expiredSetAsideIds: Type.Array(Type.Integer(), { description: 'Set aside cash records this transaction expired' }),
  depletedSetAsideIds: Type.Array(Type.Integer(), { description: 'Records depleting over time that it reduced' }),
});

export type TransactionInput = Static<typeof TransactionInput>;
export type TransactionRecord = Static<typeof TransactionRecord>;
export type RecordedTransaction = Static<typeof RecordedTransaction>;
