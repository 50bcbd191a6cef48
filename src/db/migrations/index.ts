import type { Migration, MigrationProvider } from 'kysely';
import { book } from './0001_book.js';
import { auth } from './0002_auth.js';
import { tradeBlocks } from './0003_trade_blocks.js';
import { rebalancerData } from './0004_rebalancer_data.js';
import { trading } from './0005_trading.js';
import { sleeves } from './0007_sleeves.js';

/** Ordered by name; a new migration is a new entry, never an edit of a shipped one. */
const migrations: Record<string, Migration> = {
  '0001_book': book,
  '0002_auth': auth,
  '0003_trade_blocks': tradeBlocks,
  '0004_rebalancer_data': rebalancerData,
  '0005_trading': trading,
  '0007_sleeves': sleeves,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
