import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The firm options the spec names (section 4.2 rules 2 and 6), read and written on the firm's own row only. */
export class FirmOptionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  options(firmId: number) {
    return this.db.selectFrom('firms').select(['multi_trade_block', 'trade_block_custom_types']).where('id', '=', firmId).executeTakeFirst();
  }

  async update(firmId: number, row: { multi_trade_block?: 0 | 1; trade_block_custom_types?: 0 | 1 }) {
    await this.db.updateTable('firms').set(row).where('id', '=', firmId).execute();
  }
}
