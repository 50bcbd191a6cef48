import type { Kysely } from 'kysely';
import type { RiskPartnerConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../shared/clock.js';
import { BuiltinRiskPartner } from './builtin.js';
import { HttpRiskPartner } from './http-partner.js';
import type { RiskPartner } from './partner.js';
import { QuestionnaireService } from './questionnaire-service.js';
import { RiskRepository } from './repository.js';
import { RiskProfilingService } from './service.js';

/** The configured partner behind section 4.11, and the built-in partner's questionnaire page. */
export function createRiskProfilingServices(config: RiskPartnerConfig, db: Kysely<Database>, clock: Clock) {
  const repository = new RiskRepository(db);
  const partner: RiskPartner = config.kind === 'http' ? new HttpRiskPartner(config, repository, clock) : new BuiltinRiskPartner(repository, clock);
  return {
    riskProfiling: new RiskProfilingService(partner, repository),
    riskQuestionnaire: new QuestionnaireService(repository, clock),
  };
}
