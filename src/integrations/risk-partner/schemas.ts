import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { Nullable } from '../../http/nullable.js';

const Text = Type.String();
const NullableText = Nullable(Type.String());
const NullableNumber = Nullable(Type.Number());
const NullableInteger = Nullable(Type.Integer());

export const CreateClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique in the firm (case and spacing ignored)' }),
  extClientId: Type.String({ minLength: 1, maxLength: 20, description: "The id of a household of the caller's firm, as text" }),
  source: Type.String({ minLength: 1, maxLength: 100, description: 'The system the request comes from, e.g. the CRM' }),
});
export type CreateClientBody = Static<typeof CreateClientBody>;

export const SurveyResultsQuery = Type.Object({ clientId: IdSchema({ description: 'The risk-profiling client id (CreateClient `id`)' }) });

const JsonInfo = Nullable(
  Type.Object(
    { surveyUrl: Nullable(Type.String(), { description: 'The questionnaire page for the client; the link is its only credential' }) },
    { additionalProperties: true },
  ),
);

/** Section 2.17's created client. */
export const CreatedClient = Type.Object({
  id: Type.Integer(),
  name: Text,
  orgId: Type.Integer({ description: 'The firm' }),
  userid: NullableInteger,
  jsonInfo: JsonInfo,
  riskScore: NullableNumber,
  createdBy: NullableText,
  createdDate: NullableText,
  privacyType: NullableText,
  source: NullableText,
  status: NullableText,
  extClientId: Text,
  lastModified: NullableText,
  currentSurveyId: NullableInteger,
  surveySent: Type.Boolean(),
  surveySentBy: NullableText,
  extClientId2: NullableText,
  readUsers: Type.Array(Type.Integer()),
  editUsers: Type.Array(Type.Integer()),
  error: NullableText,
  haserror: Type.Boolean(),
});
export type CreatedClient = Static<typeof CreatedClient>;

export const SurveySummary = Type.Object({
  id: Type.Integer(),
  surveyDate: NullableText,
  riskScore: NullableNumber,
  surveyScore: NullableNumber,
  surveyRiskCategory: NullableText,
  surveySource: NullableText,
  isCurrent: Type.Boolean(),
});
export type SurveySummary = Static<typeof SurveySummary>;

/** Section 2.17's survey result; survey fields are null (and `surveys` empty) before a survey. */
export const SurveyResult = Type.Object({
  surveyCategory: NullableText,
  currentSurveyId: NullableInteger,
  surveys: Type.Array(SurveySummary, { description: 'Every survey of the client, newest first' }),
  userid: NullableInteger,
  ownerOrg: NullableText,
  hasRiskScore: Type.Union([Type.Literal('true'), Type.Literal('false')]),
  ownerName: NullableText,
  id: Type.Integer(),
  riskScore: NullableNumber,
  surveyDate: NullableText,
  surveySource: NullableText,
  ownerEmail: NullableText,
  createdDate: NullableText,
  lastModified: NullableText,
  createdBy: NullableText,
  name: Text,
  surveyScore: NullableNumber,
  surveyRiskCategory: NullableText,
  error: NullableText,
  haserror: Type.Boolean(),
});
export type SurveyResult = Static<typeof SurveyResult>;
