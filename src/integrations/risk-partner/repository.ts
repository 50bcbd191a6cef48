import type { Kysely, Selectable } from 'kysely';
import type { Database, RiskClientTable, RiskSurveyTable } from '../../db/schema.js';

export type RiskClientRow = Selectable<RiskClientTable>;
export type RiskSurveyRow = Selectable<RiskSurveyTable>;

export interface NewClientRow {
  firmId: number;
  name: string;
  nameKey: string;
  householdId: number;
  source: string;
  userId: number;
  userName: string;
  surveyToken: string;
  now: string;
}

export interface NewSurveyRow {
  answers: Record<string, string>;
  points: number;
  riskScore: number;
  category: string;
  questionnaireVersion: number;
  now: string;
}

/** The risk-profiling tables; every query of a firm's data is scoped by `firm_id`. */
export class RiskRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async householdExists(firmId: number, householdId: number): Promise<boolean> {
    const row = await this.db.selectFrom('clients').select('id').where('firm_id', '=', firmId).where('id', '=', householdId).executeTakeFirst();
    return row !== undefined;
  }

  /** Inserts unless the firm already has the name; answers the stored row either way. */
  async insertClient(input: NewClientRow): Promise<{ row: RiskClientRow; created: boolean }> {
    const inserted = await this.db
      .insertInto('risk_clients')
      .values({
        firm_id: input.firmId,
        name: input.name,
        name_key: input.nameKey,
        household_id: input.householdId,
        source: input.source,
        created_by_user_id: input.userId,
        survey_token: input.surveyToken,
        current_survey_id: null,
        created_at: input.now,
        created_by: input.userName,
        edited_at: input.now,
        edited_by: input.userName,
      })
      // A concurrent create of the same name loses here instead of failing on the unique index.
      .onConflict((oc) => oc.columns(['firm_id', 'name_key']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const existing = await this.db
      .selectFrom('risk_clients')
      .selectAll()
      .where('firm_id', '=', input.firmId)
      .where('name_key', '=', input.nameKey)
      .executeTakeFirstOrThrow();
    return { row: existing, created: false };
  }

  /** The client with its creator and firm, for the survey result's owner fields. */
  clientWithOwner(firmId: number, id: number) {
    return this.db
      .selectFrom('risk_clients as rc')
      .innerJoin('users as u', 'u.id', 'rc.created_by_user_id')
      .innerJoin('firms as f', 'f.id', 'rc.firm_id')
      .selectAll('rc')
      .select(['u.display_name as owner_name', 'u.email as owner_email', 'f.name as firm_name'])
      .where('rc.firm_id', '=', firmId)
      .where('rc.id', '=', id)
      .executeTakeFirst();
  }

  surveysOf(firmId: number, clientId: number): Promise<RiskSurveyRow[]> {
    return this.db
      .selectFrom('risk_surveys')
      .selectAll()
      .where('firm_id', '=', firmId)
      .where('risk_client_id', '=', clientId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  clientByToken(token: string): Promise<RiskClientRow | undefined> {
    return this.db.selectFrom('risk_clients').selectAll().where('survey_token', '=', token).executeTakeFirst();
  }

  survey(firmId: number, id: number): Promise<RiskSurveyRow | undefined> {
    return this.db.selectFrom('risk_surveys').selectAll().where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }

  /** Stores a survey and makes it the client's current one, together. */
  addSurvey(client: RiskClientRow, survey: NewSurveyRow, editedBy: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('risk_surveys')
        .values({
          firm_id: client.firm_id,
          risk_client_id: client.id,
          answers: JSON.stringify(survey.answers),
          points: survey.points,
          risk_score: survey.riskScore,
          category: survey.category,
          questionnaire_version: survey.questionnaireVersion,
          created_at: survey.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('risk_clients')
        .set({ current_survey_id: id, edited_at: survey.now, edited_by: editedBy })
        .where('firm_id', '=', client.firm_id)
        .where('id', '=', client.id)
        .execute();
      return id;
    });
  }

  /** The firm an external partner's client was created for, if it was created through the platform. */
  async partnerClientFirm(partnerClientId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('risk_partner_clients').select('firm_id').where('partner_client_id', '=', partnerClientId).executeTakeFirst();
    return row?.firm_id;
  }

  /** Claims an external client for a firm unless a firm holds it already; answers the holder. */
  async claimPartnerClient(firmId: number, partnerClientId: number, now: string, userName: string): Promise<number> {
    await this.db
      .insertInto('risk_partner_clients')
      .values({ firm_id: firmId, partner_client_id: partnerClientId, created_at: now, created_by: userName })
      .onConflict((oc) => oc.column('partner_client_id').doNothing())
      .execute();
    return (await this.partnerClientFirm(partnerClientId))!;
  }
}
