import { Type, type Static, type TSchema } from 'typebox';
import { IdSchema, MAX_ID } from '../../http/ids.js';
import { Nullable } from '../../http/nullable.js';

/**
 * Section 2.13's representative, one line per field: its input schema, its record schema when
 * that differs, and the value a new representative starts with. Input, record and the `New`
 * template are all derived from this one table, so a field is added in one place.
 */
const Text = (maxLength = 200) => Nullable(Type.String({ maxLength }));
const OtherId = (description: string) => Nullable(IdSchema(), { description });
const Flag = Type.Boolean();
const Day = Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD' }));
/**
 * Section 2.13 types startDate as a timestamp and shows no offset: an ISO 8601 date-time without
 * one (`2026-01-01T00:00:00`) is taken as UTC, and every moment is stored and answered in UTC
 * (`utcMoment`). Seconds are required and a leap second is refused: what a Date can hold.
 */
const Moment = {
  input: Nullable(
    Type.String({
      format: 'iso-date-time',
      pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:[0-5]\\d(\\.\\d{1,9})?([Zz]|[+-]\\d{2}:\\d{2})?$',
      description: 'ISO 8601 date-time; without an offset it is read as UTC. Answered in UTC.',
    }),
  ),
  record: Nullable(Type.String({ format: 'date-time' })),
  initial: null,
};

/** A moment as stored and answered: UTC, milliseconds, `Z`. An offset-less one is read as UTC. */
export function utcMoment(value: string): string {
  const text = value.replace(' ', 'T');
  const withOffset = /([Zz]|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`;
  return new Date(withOffset).toISOString();
}
const Codes = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description });
const Name = Type.String({ minLength: 1, maxLength: 200 });

interface Field {
  input: TSchema;
  record?: TSchema;
  initial: unknown;
  /** Required on create and on a whole-record update. */
  required?: true;
}

export const REPRESENTATIVE_FIELDS = {
  brokerDealerId: { input: IdSchema({ description: 'A broker/dealer of the firm (GET /Portfolio/BrokerDealers)' }), initial: null, required: true },
  wholesalerId: { input: OtherId('Wholesaler id'), initial: null },
  payeeId: {
    input: Nullable(Type.Integer({ minimum: -1, maximum: MAX_ID }), { description: '-1 (or null) for none' }),
    record: Type.Integer({ minimum: -1, description: '-1: none' }),
    initial: -1,
  },
  payoutOverride: { input: Nullable(Type.Number({ minimum: 0, maximum: 100 }), { description: 'Payout percent overriding the schedule; null for none' }), initial: null },
  riaId: { input: OtherId('Registered investment adviser id'), initial: null },
  wholesaler401KId: { input: OtherId('401(k) wholesaler id'), initial: null },
  planAdministratorId: { input: OtherId('Plan administrator id'), initial: null },
  custodianId: { input: OtherId('Custodian id'), initial: null },
  copyToRep: { input: Flag, initial: false },
  isRIA: { input: Flag, initial: false },
  riaName: { input: Text(), initial: null },
  royalTCode: { input: Text(50), initial: null },
  hasADV: { input: Flag, initial: false },
  hasU4: { input: Flag, initial: false },
  isActive: { input: Flag, initial: true },
  isDstDwnld: { input: Flag, initial: false },
  branchID: { input: OtherId('Branch id'), initial: null },
  oldRep_ID: { input: Text(50), initial: null },
  number: { input: Type.String({ minLength: 1, maxLength: 50, description: 'Registration number, unique in the firm' }), initial: '', required: true },
  impDate: Moment,
  firstTransactionDate: { input: Day, initial: null },
  startDate: Moment,
  repStatus: { input: Text(50), initial: null },
  firmName: { input: Text(), initial: null },
  actgLedgerNum: { input: Text(50), initial: null },
  isDefault: { input: Flag, initial: false },
  importKey: { input: Text(100), initial: null },
  raAmount: { input: Nullable(Type.Number({ minimum: -1e13, maximum: 1e13 }), { description: 'US dollars' }), initial: null },
  raDate: { input: Day, initial: null },
  isRAActive: { input: Flag, initial: false },
  repRestrict: { input: Text(), initial: null },
  custodianPortalId: { input: Text(100), initial: null },
  name: { input: Name, initial: '', required: true },
  salutation: { input: Text(50), initial: null },
  address1: { input: Text(), initial: null },
  address2: { input: Text(), initial: null },
  address3: { input: Text(), initial: null },
  zip: { input: Text(20), initial: null },
  homePhone: { input: Text(40), initial: null },
  homePhoneExt: { input: Text(20), initial: null },
  fax: { input: Text(40), initial: null },
  faxExt: { input: Text(20), initial: null },
  pager: { input: Text(40), initial: null },
  pagerExt: { input: Text(20), initial: null },
  mobilePhone: { input: Text(40), initial: null },
  businessPhone: { input: Text(40), initial: null },
  businessPhoneExt: { input: Text(20), initial: null },
  otherPhone: { input: Text(40), initial: null },
  otherPhoneExt: { input: Text(20), initial: null },
  reportName: { input: Text(), initial: null },
  company: { input: Text(), initial: null },
  jobTitle: { input: Text(), initial: null },
  ssN_TaxID: { input: Text(20), initial: null },
  gender: { input: Text(20), initial: null },
  dob: { input: Day, initial: null },
  webAddress: { input: Text(500), initial: null },
  lastName: { input: Name, initial: '', required: true },
  firstName: { input: Name, initial: '', required: true },
  city: { input: Text(100), initial: null },
  state: { input: Text(50), initial: null },
  email: { input: Nullable(Type.String({ maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' })), initial: null },
  repNasds: { input: Codes('FINRA (NASD) registrations, e.g. Series 7'), initial: [] },
  repOnHolds: { input: Codes('Holds placed on the representative'), initial: [] },
  repStates: { input: Codes('States the representative is registered in'), initial: [] },
  payoutDashNotCompliance: { input: Flag, initial: false },
} satisfies Record<string, Field>;

export type RepresentativeField = keyof typeof REPRESENTATIVE_FIELDS;
/** Fields stored through utcMoment. */
export const MOMENT_FIELDS: ReadonlySet<string> = new Set(['impDate', 'startDate'] satisfies RepresentativeField[]);
const entries = Object.entries(REPRESENTATIVE_FIELDS) as [RepresentativeField, Field][];

const Audit = {
  createdDate: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  editedDate: Type.String({ format: 'date-time' }),
  editedBy: Type.String(),
};

export const RepresentativeInput = Type.Object(
  Object.fromEntries(entries.map(([name, f]) => [name, f.required ? f.input : Type.Optional(f.input)])) as Record<RepresentativeField, TSchema>,
);
export const RepresentativeRecord = Type.Object({
  id: IdSchema(),
  ...(Object.fromEntries(entries.map(([name, f]) => [name, f.record ?? f.input])) as Record<RepresentativeField, TSchema>),
  ...Audit,
});

/** GET …/Verbose/New: every field, `id` 0, no audit yet, no broker/dealer chosen. */
// The fields a create requires start empty in the template: it is a form to fill in, not a record.
const toFill = (field: string) => Type.String({ maxLength: 0, description: `Empty: fill in ${field} before creating` });
export const RepresentativeTemplate = Type.Object({
  ...RepresentativeRecord.properties,
  firstName: toFill('the first name'),
  lastName: toFill('the last name'),
  name: toFill('the name (usually first and last name)'),
  number: toFill('the registration number'),
  id: Type.Literal(0),
  brokerDealerId: Type.Null(),
  createdDate: Type.Null(),
  createdBy: Type.Null(),
  editedDate: Type.Null(),
  editedBy: Type.Null(),
});

export function newRepresentative(): Record<string, unknown> {
  const fields = Object.fromEntries(entries.map(([name, f]) => [name, structuredClone(f.initial)]));
  return { id: 0, ...fields, createdDate: null, createdBy: null, editedDate: null, editedBy: null };
}

export const BrokerDealer = Type.Object({
  id: IdSchema(),
  name: Type.String(),
  code: Nullable(Type.String()),
  isActive: Type.Boolean(),
});

export type RepresentativeInput = { [K in RepresentativeField]?: unknown } & {
  brokerDealerId: number;
  firstName: string;
  lastName: string;
  name: string;
  number: string;
  email?: string | null;
  isActive?: boolean;
  payeeId?: number | null;
};
export type RepresentativeRecord = Record<string, unknown> & { id: number; name: string };
export type BrokerDealer = Static<typeof BrokerDealer>;
