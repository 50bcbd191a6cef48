import { MAX_ID } from '../../http/ids.js';
import { type FieldProblem, validationFailed } from '../../shared/errors.js';
import type { Principal } from '../../auth/service.js';
import type { PartnerCaller, RiskPartner } from './partner.js';
import type { RiskRepository } from './repository.js';
import type { CreateClientBody, CreatedClient, SurveyResult } from './schemas.js';

const caller = (principal: Principal): PartnerCaller => ({ firmId: principal.firmId, userId: principal.userId, userName: principal.userName });

/**
 * Section 4.11 over whichever partner is configured. The platform checks what it owns (the
 * household) before the partner is asked; neither call touches the portfolio.
 */
export class RiskProfilingService {
  constructor(
    private readonly partner: RiskPartner,
    private readonly repository: RiskRepository,
  ) {}

  async createClient(principal: Principal, body: CreateClientBody, surveyUrl: (token: string) => string): Promise<CreatedClient> {
    const problems: FieldProblem[] = [];
    const name = body.name.trim();
    if (name === '') problems.push({ field: 'name', message: 'must not be blank' });
    const source = body.source.trim();
    if (source === '') problems.push({ field: 'source', message: 'must not be blank' });
    const ext = body.extClientId.trim();
    const householdId = /^\d{1,10}$/.test(ext) ? Number(ext) : NaN;
    if (!(householdId >= 1 && householdId <= MAX_ID)) {
      problems.push({ field: 'extClientId', message: `must be the id of a household of your firm, got "${body.extClientId}"` });
    } else if (!(await this.repository.householdExists(principal.firmId, householdId))) {
      problems.push({ field: 'extClientId', message: `household ${householdId} was not found in your firm` });
    }
    if (problems.length > 0) throw validationFailed(problems);
    return this.partner.createClient(caller(principal), { name, householdId, source, surveyUrl });
  }

  surveyResults(principal: Principal, clientId: number): Promise<SurveyResult> {
    return this.partner.surveyResults(caller(principal), clientId);
  }
}
