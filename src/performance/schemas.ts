import { Type } from 'typebox';
import { Nullable } from '../http/nullable.js';
import { IdSchema } from '../http/ids.js';
import { Skip, Top } from '../http/paging.js';

export const ENTITY_PATHS = ['Accounts', 'Registrations', 'Clients'] as const;

/** Unknown fields are refused (a 400 naming them), not silently dropped as `additionalProperties: false` would be. */
const closed = { additionalProperties: Type.Never({ description: 'unknown field' }) };

const DateText = (description: string) => Type.String({ maxLength: 10, description, examples: ['2026-09-30'] });
const Fraction = (description: string) => Nullable(Type.Number({ description }));
const Money = (description: string) => Nullable(Type.Number({ description }));

export const PeriodQuery = Type.Object(
  {
    startDate: Type.Optional(DateText('First day of the period (YYYY-MM-DD); default: the inception')),
    endDate: Type.Optional(DateText('Last day of the period (YYYY-MM-DD); default: the last valuation')),
  },
  closed,
);

export const PerformanceParams = Type.Object({ id: IdSchema({ description: 'Id of the account, registration or household' }) });

export const PeriodRow = Type.Object({
  period: Type.Union(['MTD', 'QTD', 'YTD', '1Y', '3Y', '5Y', 'ITD'].map((p) => Type.Literal(p))),
  startDate: Type.String(),
  endDate: Type.String(),
  inception: Type.Boolean(),
  twrNet: Fraction('Time-weighted return net of fees (0.0523 = 5.23 %)'),
  twrGross: Fraction('Time-weighted return gross of fees'),
  twrNetAnnualized: Fraction('Annualised; null under a year'),
  mwr: Fraction('Money-weighted return of the period (net)'),
});

export const PerformanceRecord = Type.Object({
  entity: Type.Union(ENTITY_PATHS.map((e) => Type.Literal(e)), { description: 'What was measured: the path segment of its kind' }),
  id: Type.Integer(),
  name: Type.String(),
  startDate: Nullable(Type.String({ description: 'First day measured: the inception date when `inception`, else the day after the beginning valuation' })),
  endDate: Nullable(Type.String({ description: 'Last valuation date on or before the requested end' })),
  inception: Type.Boolean({ description: 'The period was moved to start at the first valuation' }),
  beginningValue: Money('Value at the close the period begins at'),
  endingValue: Money('Value at the close of endDate'),
  netFlows: Money('External flows over the period, fees excluded'),
  fees: Money('Advisory fees over the period'),
  income: Money('Dividends and interest over the period (part of the return)'),
  gainLoss: Money('endingValue − beginningValue − netFlows'),
  twrNet: Fraction('Time-weighted return net of fees'),
  twrGross: Fraction('Time-weighted return gross of fees'),
  twrNetAnnualized: Fraction('Null for periods under a year'),
  twrGrossAnnualized: Fraction('Null for periods under a year'),
  mwr: Fraction('Money-weighted return of the period (net)'),
  mwrAnnualized: Fraction('The money-weighted annual rate; null for periods under a year'),
  benchmark: Nullable(
    Type.Object({ name: Type.String({ description: "The model, or for accounts of several models `Blend: <model> <weight> %, …`" }), twr: Type.Number(), twrAnnualized: Nullable(Type.Number()) }),
    { description: "The model's targets rebalanced daily; for a registration or household its accounts' models weighted by their values at the period's beginning. Null when an account holding money then has no model, or without prices" },
  ),
  periods: Type.Array(PeriodRow, { description: 'MTD, QTD, YTD, 1Y, 3Y, 5Y, ITD ending at endDate; a period beginning before the first valuation is left out, except ITD' }),
});

export const DailyRow = Type.Object({
  date: Type.String(),
  marketValue: Type.Number(),
  netFlow: Type.Number({ description: 'External flows since the previous valuation date' }),
  fees: Type.Number(),
  income: Type.Number(),
  twrNetCumulative: Type.Number({ description: 'Net TWR from the period start to this close' }),
});

export const BatchBody = Type.Object(
  {
    entity: Type.Union(ENTITY_PATHS.map((e) => Type.Literal(e)), { description: 'Accounts, Registrations or Clients (households)' }),
    ids: Type.Optional(Type.Array(IdSchema(), { maxItems: 10_000, description: 'The entities to measure; omitted: every one of the firm, in id order' })),
    startDate: Type.Optional(DateText('First day of the period; default: each entity\'s inception')),
    endDate: Type.Optional(DateText('Last day of the period; default: each entity\'s last valuation')),
  },
  closed,
);

export const BatchQuery = Type.Object({ $top: Top(1000), $skip: Skip() });
