import { type Clock, isoNow } from '../../shared/clock.js';
import { DomainError } from '../../shared/errors.js';
import { type Answers, QUESTIONNAIRE_VERSION, QUESTIONS, type Question, score, unanswered } from './questionnaire.js';
import type { RiskClientRow, RiskRepository } from './repository.js';

export interface StoredResult {
  riskScore: number;
  category: string;
  points: number;
  surveyDate: string;
}

export interface QuestionnaireView {
  clientName: string;
  current: StoredResult | null;
}

export type SubmitOutcome = { stored: true } | ({ stored: false; missing: Question[]; answers: Answers } & QuestionnaireView);

/** Who `edited_by` names when the household's client, who has no platform login, takes a survey. */
export const QUESTIONNAIRE_EDITOR = 'questionnaire';

const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;
const invalidLink = () => new DomainError('not_found', 'This questionnaire link is not valid. Ask your advisor for a new one.');

/** The public questionnaire page's side of the built-in partner; the link's token is the only credential. */
export class QuestionnaireService {
  constructor(
    private readonly repository: RiskRepository,
    private readonly clock: Clock,
  ) {}

  async open(token: string | undefined): Promise<QuestionnaireView> {
    const client = await this.client(token);
    return { clientName: client.name, current: await this.current(client) };
  }

  /** Stores a complete answer set as a new survey that becomes current; an incomplete one stores nothing. */
  async submit(token: string | undefined, form: Record<string, unknown>): Promise<SubmitOutcome> {
    const client = await this.client(token);
    const answers: Answers = {};
    for (const question of QUESTIONS) {
      const value = form[question.key];
      if (typeof value === 'string' && question.answers.some((a) => a.key === value)) answers[question.key] = value;
    }
    const missing = unanswered(answers);
    if (missing.length > 0) return { stored: false, clientName: client.name, current: await this.current(client), missing, answers };
    const result = score(answers);
    await this.repository.addSurvey(
      client,
      { answers, points: result.points, riskScore: result.riskScore, category: result.category, questionnaireVersion: QUESTIONNAIRE_VERSION, now: isoNow(this.clock) },
      QUESTIONNAIRE_EDITOR,
    );
    return { stored: true };
  }

  private async client(token: string | undefined): Promise<RiskClientRow> {
    if (!token || !TOKEN.test(token)) throw invalidLink();
    const client = await this.repository.clientByToken(token);
    if (!client) throw invalidLink();
    return client;
  }

  private async current(client: RiskClientRow): Promise<StoredResult | null> {
    if (client.current_survey_id === null) return null;
    const survey = await this.repository.survey(client.firm_id, client.current_survey_id);
    return survey ? { riskScore: survey.risk_score, category: survey.category, points: survey.points, surveyDate: survey.created_at } : null;
  }
}
