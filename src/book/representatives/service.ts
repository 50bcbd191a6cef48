import type { RepresentativesRepository } from './repository.js';
import type { BrokerDealer } from './schemas.js';

/** The reference data a representative is created against; the representative itself is a verbose entity (entity.ts). */
export class RepresentativesService {
  constructor(private readonly repository: RepresentativesRepository) {}

  async brokerDealers(firmId: number): Promise<BrokerDealer[]> {
    return (await this.repository.brokerDealers(firmId)).map((row) => ({ id: row.id, name: row.name, code: row.code, isActive: row.is_active === 1 }));
  }
}
