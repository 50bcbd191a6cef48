import type { CreatedClient, SurveyResult } from './schemas.js';

/** Who asks: the partner stores the client under the caller's firm and names its creator. */
export interface PartnerCaller {
  firmId: number;
  userId: number;
  userName: string;
}

export interface NewRiskClient {
  /** Trimmed. */
  name: string;
  householdId: number;
  source: string;
  /** The absolute address of the built-in questionnaire page for a link token. */
  surveyUrl(token: string): string;
}

export const DUPLICATE_NAME = 'name should be unique';

/**
 * A risk-profiling partner. The built-in one stores clients and runs its own questionnaire; the
 * HTTP one forwards to an external service. Both answer section 2.17's shapes; a duplicate name
 * answers the existing client with `error` = DUPLICATE_NAME. An unknown client, or one of another
 * firm, is a `not_found` DomainError; a partner that fails is a `bad_gateway` one.
 */
export interface RiskPartner {
  createClient(caller: PartnerCaller, client: NewRiskClient): Promise<CreatedClient>;
  surveyResults(caller: PartnerCaller, clientId: number): Promise<SurveyResult>;
}
