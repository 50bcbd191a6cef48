import { type Clock, isoNow } from '../../shared/clock.js';
import { notFound } from '../../shared/errors.js';
import { newToken } from '../../auth/secrets.js';
import { DUPLICATE_NAME, type NewRiskClient, type PartnerCaller, type RiskPartner } from './partner.js';
import type { RiskClientRow, RiskRepository, RiskSurveyRow } from './repository.js';
import type { CreatedClient, SurveyResult, SurveySummary } from './schemas.js';

/** Names are unique in a firm regardless of case and of spacing around and between words. */
export const nameKey = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

export const SURVEY_SOURCE = 'Questionnaire';
export const SURVEY_CATEGORY = 'RiskTolerance';

function summary(survey: RiskSurveyRow, currentId: number | null): SurveySummary {
  return {
    id: survey.id,
    surveyDate: survey.created_at,
    riskScore: survey.risk_score,
    surveyScore: survey.points,
    surveyRiskCategory: survey.category,
    surveySource: SURVEY_SOURCE,
    isCurrent: survey.id === currentId,
  };
}

/** The partner built into the platform: clients in `risk_clients`, surveys from its own questionnaire page. */
export class BuiltinRiskPartner implements RiskPartner {
  constructor(
    private readonly repository: RiskRepository,
    private readonly clock: Clock,
  ) {}

  async createClient(caller: PartnerCaller, client: NewRiskClient): Promise<CreatedClient> {
    const now = isoNow(this.clock);
    const { row, created } = await this.repository.insertClient({
      firmId: caller.firmId,
      name: client.name,
      nameKey: nameKey(client.name),
      householdId: client.householdId,
      source: client.source,
      userId: caller.userId,
      userName: caller.userName,
      surveyToken: newToken(),
      now,
    });
    const current = row.current_survey_id === null ? undefined : await this.repository.survey(row.firm_id, row.current_survey_id);
    return this.toCreatedClient(row, client.surveyUrl(row.survey_token), current, created ? null : DUPLICATE_NAME);
  }

  async surveyResults(caller: PartnerCaller, clientId: number): Promise<SurveyResult> {
    const client = await this.repository.clientWithOwner(caller.firmId, clientId);
    if (!client) throw notFound('risk-profiling client', clientId);
    const surveys = await this.repository.surveysOf(caller.firmId, clientId);
    const current = surveys.find((s) => s.id === client.current_survey_id);
    return {
      surveyCategory: current ? SURVEY_CATEGORY : null,
      currentSurveyId: current?.id ?? null,
      surveys: surveys.map((s) => summary(s, client.current_survey_id)),
      userid: client.created_by_user_id,
      ownerOrg: client.firm_name,
      hasRiskScore: current ? 'true' : 'false',
      ownerName: client.owner_name,
      id: client.id,
      riskScore: current?.risk_score ?? null,
      surveyDate: current?.created_at ?? null,
      surveySource: current ? SURVEY_SOURCE : null,
      ownerEmail: client.owner_email,
      createdDate: client.created_at,
      lastModified: client.edited_at,
      createdBy: client.created_by,
      name: client.name,
      surveyScore: current?.points ?? null,
      surveyRiskCategory: current?.category ?? null,
      error: null,
      haserror: false,
    };
  }

  private toCreatedClient(row: RiskClientRow, surveyUrl: string, current: RiskSurveyRow | undefined, error: string | null): CreatedClient {
    return {
      id: row.id,
      name: row.name,
      orgId: row.firm_id,
      userid: row.created_by_user_id,
      jsonInfo: { surveyUrl },
      riskScore: current?.risk_score ?? null,
      createdBy: row.created_by,
      createdDate: row.created_at,
      // Every user of the firm with the route's privilege sees the client; no per-user lists.
      privacyType: 'Firm',
      source: row.source,
      status: 'Active',
      extClientId: String(row.household_id),
      lastModified: row.edited_at,
      currentSurveyId: row.current_survey_id,
      // The platform sends no invitations: the advisor passes jsonInfo.surveyUrl on.
      surveySent: false,
      surveySentBy: null,
      extClientId2: null,
      readUsers: [],
      editUsers: [],
      error,
      haserror: error !== null,
    };
  }
}
