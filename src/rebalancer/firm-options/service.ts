import { notFound } from '../../shared/errors.js';
import type { FirmOptionsRepository } from './repository.js';
import type { FirmOptions, FirmOptionsUpdate } from './schemas.js';

const flag = (value: boolean | number): 0 | 1 => (value === true || value === 1 ? 1 : 0);

/**
 * Read and change the caller's firm options. A change applies to the next trade block call: blocks
 * already stored stay as they are (a firm turning multi trade block off keeps its detail records).
 */
export class FirmOptionsService {
  constructor(private readonly repository: FirmOptionsRepository) {}

  async get(firmId: number): Promise<FirmOptions> {
    const row = await this.repository.options(firmId);
    if (!row) throw notFound('firm', firmId);
    return { multiTradeBlock: row.multi_trade_block, customTradeBlockTypes: row.trade_block_custom_types };
  }

  async update(firmId: number, input: FirmOptionsUpdate): Promise<FirmOptions> {
    await this.repository.update(firmId, {
      ...(input.multiTradeBlock !== undefined ? { multi_trade_block: flag(input.multiTradeBlock) } : {}),
      ...(input.customTradeBlockTypes !== undefined ? { trade_block_custom_types: flag(input.customTradeBlockTypes) } : {}),
    });
    return this.get(firmId);
  }
}
