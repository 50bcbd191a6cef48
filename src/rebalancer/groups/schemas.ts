import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Skip, Top } from '../../http/paging.js';

export const GroupQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Matches the id, or is contained in the name (case-insensitive)' })),
  $top: Top(),
  $skip: Skip(),
});

const GroupAccount = Type.Object({ id: Type.Integer(), name: Type.String(), accountNumber: Type.String() });

export const TradeGroupItem = Type.Object(
  { id: Type.Integer({ description: 'The key of a TradeGroup rebalance' }), name: Type.String(), accountCount: Type.Integer() },
  { examples: [{ id: 3, name: 'Quarterly rebalance', accountCount: 42 }] },
);
export const TradeGroupDetail = Type.Object({ ...TradeGroupItem.properties, accounts: Type.Array(GroupAccount, { description: 'The accounts a TradeGroup rebalance of this key takes' }) });

export const ModelAggItem = Type.Object(
  {
    id: Type.Integer({ description: 'The key of a ModelAgg rebalance' }),
    name: Type.String(),
    modelCount: Type.Integer(),
    accountCount: Type.Integer({ description: 'Accounts on any of its models: those a ModelAgg rebalance of this key takes' }),
  },
  { examples: [{ id: 2, name: 'Core strategies', modelCount: 3, accountCount: 1250 }] },
);
export const ModelAggDetail = Type.Object({
  ...ModelAggItem.properties,
  models: Type.Array(Type.Object({ modelId: Type.Integer(), name: Type.String(), weightPercent: Type.Number() })),
});

export const TradeGroupParams = Type.Object({ tradeGroupId: IdSchema() });
export const ModelAggParams = Type.Object({ modelAggId: IdSchema() });

export type TradeGroupItem = Static<typeof TradeGroupItem>;
export type TradeGroupDetail = Static<typeof TradeGroupDetail>;
export type ModelAggItem = Static<typeof ModelAggItem>;
export type ModelAggDetail = Static<typeof ModelAggDetail>;
