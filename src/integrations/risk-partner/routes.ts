import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HtmlPage } from '../../http/media.js';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { DomainError } from '../../shared/errors.js';
import { principalOf } from '../../auth/hook.js';
import { sendPage as page } from '../../http/html.js';
import { Privilege } from '../../auth/privileges.js';
import { linkErrorPage, questionnairePage, resultPage } from './pages.js';
import type { QuestionnaireService } from './questionnaire-service.js';
import { CreateClientBody, CreatedClient, SurveyResult, SurveyResultsQuery } from './schemas.js';
import type { RiskProfilingService } from './service.js';

const tags = ['Risk profiling'];
/** Unversioned, like the sign-in page: the address goes to a person, not to an API client. */
export const QUESTIONNAIRE_PATH = '/Integrations/RiskPartner/Questionnaire';

/** Section 4.11. */
export const riskPartnerRoutes: FastifyPluginAsyncTypebox<{ riskProfiling: RiskProfilingService; basePath: string; publicUrl: string }> = async (app, { riskProfiling, basePath, publicUrl }) => {
  app.put(
    '/Integrations/RiskPartner/CreateClient',
    {
      config: { privilege: Privilege.PortfolioEdit },
      schema: {
        tags,
        summary: "Create the risk-profiling client of a household; a name the firm already has answers the existing client with error 'name should be unique'",
        description: 'Registers a household with the risk-profiling partner and answers the client, whose jsonInfo.surveyUrl is the questionnaire link to send the household. A name your firm already used answers the existing client with error \'name should be unique\'. 502 when the partner cannot be reached.',
        body: CreateClientBody,
        response: responses({ 200: CreatedClient }, [401, 403, 502]),
      },
    },
    async (request) => {
      // The token travels in the query string, which request logs leave out (src/app.ts). The
      // address comes from PUBLIC_URL: the Host header is the caller's to write.
      const origin = `${publicUrl}${basePath}${QUESTIONNAIRE_PATH}`;
      return riskProfiling.createClient(principalOf(request), request.body, (token) => `${origin}?token=${encodeURIComponent(token)}`);
    },
  );

  app.get(
    '/Integrations/RiskPartner/GetSurveyResults',
    {
      config: { privilege: Privilege.PortfolioRead },
      schema: {
        tags,
        summary: 'The current survey result of a risk-profiling client and the list of its surveys; survey fields are null before the first survey',
        description: 'The client\'s current risk score and category, and every survey it has taken. Before the first survey the survey fields are null and hasRiskScore is \'false\'.',
        querystring: SurveyResultsQuery,
        response: responses({ 200: SurveyResult }, [401, 403, 404, 502]),
      },
    },
    async (request) => riskProfiling.surveyResults(principalOf(request), request.query.clientId),
  );
};

const Html = HtmlPage();
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ description: 'The secret of the client record\'s questionnaire link' })) });

function linkFailure(reply: FastifyReply, error: unknown) {
  if (error instanceof DomainError && error.code === 'not_found') return page(reply, 404, linkErrorPage(error.message));
  throw error;
}

/**
 * The built-in partner's questionnaire for the household's client, who has no platform login:
 * public, and the link's token is the credential.
 */
export const riskQuestionnaireRoutes: FastifyPluginAsyncTypebox<{ questionnaire: QuestionnaireService; basePath: string }> = async (app, { questionnaire, basePath }) => {
  const action = `${basePath}${QUESTIONNAIRE_PATH}`;
  const withToken = (path: string, token: string) => `${path}?token=${encodeURIComponent(token)}`;
  const isPublic = { public: true };

  app.get(
    QUESTIONNAIRE_PATH,
    { config: isPublic, schema: { tags, summary: 'The risk questionnaire page of a client (link from CreateClient jsonInfo.surveyUrl)',
        description: 'The page the household opens from its link: ten questions with one answer each. The link\'s token identifies the client; an unknown token shows a 404 page.', querystring: TokenQuery, response: { 200: Html, 404: Html } } },
    async (request, reply) => {
      try {
        const view = await questionnaire.open(request.query.token);
        return page(reply, 200, questionnairePage({ action, token: request.query.token!, clientName: view.clientName, current: view.current }));
      } catch (error) {
        return linkFailure(reply, error);
      }
    },
  );

  app.post(
    QUESTIONNAIRE_PATH,
    {
      config: isPublic,
      schema: {
        tags,
        summary: 'Questionnaire form post: stores a new current survey and redirects to the result, or shows the page again naming unanswered questions',
        description: 'The questionnaire\'s form. With every question answered it stores a new survey as the client\'s current one and redirects (303) to the result page; otherwise it shows the page again with the answers given and the unanswered questions marked (400).',
        body: Type.Object({ token: Type.Optional(Type.String()) }, { description: 'token and one field per question key (form-encoded)' }),
        response: { 303: Type.Null(), 400: Html, 404: Html },
      },
    },
    async (request, reply) => {
      const form = request.body as Record<string, unknown>;
      const token = request.body.token;
      try {
        const outcome = await questionnaire.submit(token, form);
        if (!outcome.stored) return page(reply, 400, questionnairePage({ action, token: token!, ...outcome }));
        // Post/redirect/get: reloading the result page does not store the survey twice.
        return reply.header('Cache-Control', 'no-store').header('Referrer-Policy', 'no-referrer').redirect(withToken(`${action}/Result`, token!), 303);
      } catch (error) {
        return linkFailure(reply, error);
      }
    },
  );

  app.get(
    `${QUESTIONNAIRE_PATH}/Result`,
    { config: isPublic, schema: { tags, summary: 'The current result of the questionnaire',
        description: 'The client\'s current score out of 100 and its category, with a link to answer again. Before any survey it redirects (303) to the questionnaire.', querystring: TokenQuery, response: { 200: Html, 303: Type.Null(), 404: Html } } },
    async (request, reply) => {
      try {
        const view = await questionnaire.open(request.query.token);
        const againUrl = withToken(action, request.query.token!);
        if (!view.current) return reply.header('Referrer-Policy', 'no-referrer').redirect(againUrl, 303);
        return page(reply, 200, resultPage({ clientName: view.clientName, result: view.current, againUrl }));
      } catch (error) {
        return linkFailure(reply, error);
      }
    },
  );
};
