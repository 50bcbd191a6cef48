import { MAX_ID } from '../../http/ids.js';
import { type Clock, isoNow } from '../../shared/clock.js';
import { badGateway, notFound } from '../../shared/errors.js';
import { DUPLICATE_NAME, type NewRiskClient, type PartnerCaller, type RiskPartner } from './partner.js';
import type { RiskRepository } from './repository.js';
import type { CreatedClient, SurveyResult, SurveySummary } from './schemas.js';

export interface HttpPartnerOptions {
  url: string;
  apiKey: string;
  timeoutMs: number;
}

type Json = Record<string, unknown>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const number = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const integer = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const integers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function partnerId(body: Json): number {
  const id = body.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > MAX_ID) throw badGateway('the risk partner answered without a valid client id');
  return id;
}

/** jsonInfo may arrive as an object or as JSON text; either way the caller gets an object or null. */
function jsonInfo(value: unknown): CreatedClient['jsonInfo'] {
  let info = value;
  if (typeof info === 'string') {
    try {
      info = JSON.parse(info);
    } catch {
      const unparsed = { surveyUrl: null, text: value };
      return unparsed;
    }
  }
  if (!isObject(info)) return null;
  return { ...info, surveyUrl: text(info.surveyUrl) };
}

function surveySummary(value: unknown, currentId: number | null): SurveySummary | undefined {
  if (!isObject(value) || integer(value.id) === null) return undefined;
  const id = value.id as number;
  return {
    id,
    surveyDate: text(value.surveyDate),
    riskScore: number(value.riskScore),
    surveyScore: number(value.surveyScore),
    surveyRiskCategory: text(value.surveyRiskCategory),
    surveySource: text(value.surveySource),
    isCurrent: typeof value.isCurrent === 'boolean' ? value.isCurrent : id === currentId,
  };
}

/**
 * An external partner over HTTP (contract: docs/risk-profiling.md). The platform records which
 * firm each partner client was created for and answers another firm's id with 404 without asking
 * the partner; a partner answer naming a client held by another firm is refused (502).
 */
export class HttpRiskPartner implements RiskPartner {
  constructor(
    private readonly options: HttpPartnerOptions,
    private readonly repository: RiskRepository,
    private readonly clock: Clock,
  ) {}

  async createClient(caller: PartnerCaller, client: NewRiskClient): Promise<CreatedClient> {
    const { status, body } = await this.call('POST', '/clients', {
      name: client.name,
      extClientId: String(client.householdId),
      source: client.source,
      orgId: caller.firmId,
      userid: caller.userId,
      createdBy: caller.userName,
    });
    if (status !== 200 && status !== 201 && status !== 409) throw this.refused(status);
    const id = partnerId(body);
    const holder = await this.repository.claimPartnerClient(caller.firmId, id, isoNow(this.clock), caller.userName);
    if (holder !== caller.firmId) throw badGateway('the risk partner answered with a client of another firm');
    const error = status === 409 ? DUPLICATE_NAME : null;
    return {
      id,
      name: text(body.name) ?? client.name,
      orgId: caller.firmId,
      userid: integer(body.userid),
      jsonInfo: jsonInfo(body.jsonInfo),
      riskScore: number(body.riskScore),
      createdBy: text(body.createdBy),
      createdDate: text(body.createdDate),
      privacyType: text(body.privacyType),
      source: text(body.source),
      status: text(body.status),
      extClientId: text(body.extClientId) ?? String(client.householdId),
      lastModified: text(body.lastModified),
      currentSurveyId: integer(body.currentSurveyId),
      surveySent: body.surveySent === true,
      surveySentBy: text(body.surveySentBy),
      extClientId2: text(body.extClientId2),
      readUsers: integers(body.readUsers),
      editUsers: integers(body.editUsers),
      error,
      haserror: error !== null,
    };
  }

  async surveyResults(caller: PartnerCaller, clientId: number): Promise<SurveyResult> {
    if ((await this.repository.partnerClientFirm(clientId)) !== caller.firmId) throw notFound('risk-profiling client', clientId);
    const { status, body } = await this.call('GET', `/clients/${clientId}/survey-results`);
    if (status === 404) throw notFound('risk-profiling client', clientId);
    if (status !== 200) throw this.refused(status);
    if (partnerId(body) !== clientId) throw badGateway('the risk partner answered for another client');
    const currentSurveyId = integer(body.currentSurveyId);
    const surveys = Array.isArray(body.surveys) ? body.surveys.map((s) => surveySummary(s, currentSurveyId)).filter((s) => s !== undefined) : [];
    const riskScore = number(body.riskScore);
    const hasRiskScore = body.hasRiskScore === true || body.hasRiskScore === 'true' || (body.hasRiskScore === undefined && riskScore !== null);
    return {
      surveyCategory: text(body.surveyCategory),
      currentSurveyId,
      surveys,
      userid: integer(body.userid),
      ownerOrg: text(body.ownerOrg),
      hasRiskScore: hasRiskScore ? 'true' : 'false',
      ownerName: text(body.ownerName),
      id: clientId,
      riskScore,
      surveyDate: text(body.surveyDate),
      surveySource: text(body.surveySource),
      ownerEmail: text(body.ownerEmail),
      createdDate: text(body.createdDate),
      lastModified: text(body.lastModified),
      createdBy: text(body.createdBy),
      name: text(body.name) ?? '',
      surveyScore: number(body.surveyScore),
      surveyRiskCategory: text(body.surveyRiskCategory),
      error: null,
      haserror: false,
    };
  }

  private refused(status: number) {
    if (status === 401 || status === 403) return badGateway(`the risk partner refused the platform's API key (HTTP ${status})`);
    return badGateway(`the risk partner answered HTTP ${status}`);
  }

  /** One JSON call; network failures, timeouts and unreadable answers are 502s. */
  private async call(method: 'GET' | 'POST', path: string, payload?: Json): Promise<{ status: number; body: Json }> {
    let response: Response;
    let raw: string;
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      response = await fetch(`${this.options.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        body: payload ? JSON.stringify(payload) : undefined,
        signal,
        redirect: 'error',
      });
      raw = await response.text();
    } catch {
      if (signal.aborted) throw badGateway(`the risk partner did not answer within ${this.options.timeoutMs} ms`);
      // The network detail names the partner's address; callers get the fact, not the address.
      throw badGateway('the risk partner could not be reached');
    }
    if (response.status === 404 || response.status >= 500 || response.status === 401 || response.status === 403) {
      return { status: response.status, body: {} };
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      throw badGateway(`the risk partner's answer (HTTP ${response.status}) is not JSON`);
    }
    if (!isObject(body)) throw badGateway(`the risk partner's answer (HTTP ${response.status}) is not a JSON object`);
    return { status: response.status, body };
  }
}
