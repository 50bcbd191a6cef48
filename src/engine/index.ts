// Public API of the rebalancing engine: plain data in, trades and messages out.
export { rebalanceAccount } from './account.js';
export { rebalanceRegistration } from './sleeves.js';
export { errorResult, unknownAccountResult } from './result.js';
export { toCents, roundCents, shareDecimals } from './money.js';
export { protectedCash, isSetAsideActive, activeTradeBlock } from './values.js';
export { tradesAsOpenOrders, applyTrades } from './replay.js';
export * from './types.js';
export { rebalanceHousehold } from './tax/household.js';
export { TAX_INFO_CODES } from './tax/notes.js';
export { SUBSTITUTED } from './lines.js';
export { EARLIER_ORDERS_COUNTED } from './counted.js';
export { orderLots, sliceOf, isLongTerm, type LotSlice } from './tax/lots.js';
export { lotMethodOf } from './tax/plan.js';
export { REBALANCE_DEFAULTS, TAX_DEFAULTS } from './defaults.js';
