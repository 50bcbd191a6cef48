import { Type, type Static } from 'typebox';

const Flag = (description: string) => Type.Union([Type.Boolean(), Type.Integer({ minimum: 0, maximum: 1 })], { description: `${description}; true/false, or 0/1 as reads give it` });

export const FirmOptions = Type.Object(
  {
    multiTradeBlock: Type.Integer({ minimum: 0, maximum: 1, description: '1 stores trade blocks as separate detail records (several may be active); 0 updates the legacy flags' }),
    customTradeBlockTypes: Type.Integer({ minimum: 0, maximum: 1, description: '1 lets a created trade block carry a nested tradeBlockReason in place of tradeBlockReasonId' }),
  },
  { examples: [{ multiTradeBlock: 1, customTradeBlockTypes: 0 }] },
);

export const FirmOptionsUpdate = Type.Object(
  {
    multiTradeBlock: Type.Optional(Flag('Omitted: unchanged')),
    customTradeBlockTypes: Type.Optional(Flag('Omitted: unchanged')),
  },
  { minProperties: 1, examples: [{ multiTradeBlock: true }] },
);

export type FirmOptions = Static<typeof FirmOptions>;
export type FirmOptionsUpdate = Static<typeof FirmOptionsUpdate>;
