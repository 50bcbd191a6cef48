/**
 * The demo firm's product universe and model line-up. Tickers and names are real-looking so
 * that screens and rebalance reasons read naturally; prices are plausible, not market data.
 */
export type ProductType = 'Equity' | 'ETF' | 'MutualFund' | 'FixedIncome' | 'Cash';

export interface DemoProduct {
  ticker: string;
  name: string;
  type: ProductType;
  class: string;
  subClass: string;
  category: string;
  /** Latest price in dollars; NAVs carry four decimals, everything else two. */
  price: number;
}

const etf = (ticker: string, name: string, cls: string, subClass: string, category: string, price: number) =>
  ({ ticker, name, type: 'ETF', class: cls, subClass, category, price }) as const;
const fund = (ticker: string, name: string, cls: string, subClass: string, category: string, price: number) =>
  ({ ticker, name, type: 'MutualFund', class: cls, subClass, category, price }) as const;
const stock = (ticker: string, name: string, subClass: string, category: string, price: number) =>
  ({ ticker, name, type: 'Equity', class: 'Equity', subClass, category, price }) as const;

export const PRODUCTS: readonly DemoProduct[] = [
  etf('VTI', 'Vanguard Total Stock Market ETF', 'Equity', 'US Total Market', 'Large Blend', 285.42),
  etf('VOO', 'Vanguard S&P 500 ETF', 'Equity', 'US Large Cap', 'Large Blend', 521.18),
  etf('ITOT', 'iShares Core S&P Total U.S. Stock Market ETF', 'Equity', 'US Total Market', 'Large Blend', 124.67),
  etf('QQQ', 'Invesco QQQ Trust', 'Equity', 'US Large Cap', 'Large Growth', 482.35),
  etf('VIG', 'Vanguard Dividend Appreciation ETF', 'Equity', 'US Large Cap', 'Large Blend', 194.83),
  etf('SCHD', 'Schwab U.S. Dividend Equity ETF', 'Equity', 'US Large Cap', 'Large Value', 27.84),
  etf('IJH', 'iShares Core S&P Mid-Cap ETF', 'Equity', 'US Mid Cap', 'Mid-Cap Blend', 60.12),
  etf('IJR', 'iShares Core S&P Small-Cap ETF', 'Equity', 'US Small Cap', 'Small Blend', 115.39),
  etf('IWM', 'iShares Russell 2000 ETF', 'Equity', 'US Small Cap', 'Small Blend', 214.96),
  etf('VEA', 'Vanguard FTSE Developed Markets ETF', 'Equity', 'International Developed', 'Foreign Large Blend', 50.21),
  etf('EFA', 'iShares MSCI EAFE ETF', 'Equity', 'International Developed', 'Foreign Large Blend', 80.47),
  etf('VWO', 'Vanguard FTSE Emerging Markets ETF', 'Equity', 'Emerging Markets', 'Diversified Emerging Mkts', 44.83),
  etf('IEMG', 'iShares Core MSCI Emerging Markets ETF', 'Equity', 'Emerging Markets', 'Diversified Emerging Mkts', 55.06),
  etf('VNQ', 'Vanguard Real Estate ETF', 'Alternatives', 'Real Estate', 'Real Estate', 88.15),
  etf('GLD', 'SPDR Gold Shares', 'Alternatives', 'Commodities', 'Commodities Focused', 241.92),
  etf('BND', 'Vanguard Total Bond Market ETF', 'Fixed Income', 'US Aggregate', 'Intermediate Core Bond', 72.54),
  etf('AGG', 'iShares Core U.S. Aggregate Bond ETF', 'Fixed Income', 'US Aggregate', 'Intermediate Core Bond', 98.31),
  etf('BNDX', 'Vanguard Total International Bond ETF', 'Fixed Income', 'International Bond', 'Global Bond-USD Hedged', 48.97),
  etf('TIP', 'iShares TIPS Bond ETF', 'Fixed Income', 'Inflation Protected', 'Inflation-Protected Bond', 108.26),
  etf('SHY', 'iShares 1-3 Year Treasury Bond ETF', 'Fixed Income', 'US Treasury', 'Short Government', 82.09),
  etf('LQD', 'iShares iBoxx $ Investment Grade Corporate Bond ETF', 'Fixed Income', 'Corporate', 'Corporate Bond', 108.74),
  etf('MUB', 'iShares National Muni Bond ETF', 'Fixed Income', 'Municipal', 'Muni National Interm', 106.58),
  fund('VTSAX', 'Vanguard Total Stock Market Index Fund Admiral', 'Equity', 'US Total Market', 'Large Blend', 132.4567),
  fund('FXAIX', 'Fidelity 500 Index Fund', 'Equity', 'US Large Cap', 'Large Blend', 195.2311),
  fund('VTIAX', 'Vanguard Total International Stock Index Admiral', 'Equity', 'International Developed', 'Foreign Large Blend', 33.1234),
  fund('AGTHX', 'American Funds Growth Fund of America A', 'Equity', 'US Large Cap', 'Large Growth', 74.5518),
  fund('DODGX', 'Dodge & Cox Stock Fund', 'Equity', 'US Large Cap', 'Large Value', 262.0876),
  fund('VBTLX', 'Vanguard Total Bond Market Index Admiral', 'Fixed Income', 'US Aggregate', 'Intermediate Core Bond', 9.6543),
  fund('PTTRX', 'PIMCO Total Return Fund Institutional', 'Fixed Income', 'US Aggregate', 'Intermediate Core-Plus Bond', 8.9123),
  fund('VWELX', 'Vanguard Wellington Fund Investor', 'Balanced', 'Allocation', 'Moderate Allocation', 44.1209),
  stock('AAPL', 'Apple Inc.', 'US Large Cap', 'Technology', 227.52),
  stock('MSFT', 'Microsoft Corporation', 'US Large Cap', 'Technology', 415.26),
  stock('NVDA', 'NVIDIA Corporation', 'US Large Cap', 'Technology', 124.92),
  stock('AMZN', 'Amazon.com, Inc.', 'US Large Cap', 'Consumer Cyclical', 186.43),
  stock('GOOGL', 'Alphabet Inc. Class A', 'US Large Cap', 'Communication Services', 163.38),
  stock('JPM', 'JPMorgan Chase & Co.', 'US Large Cap', 'Financial Services', 211.07),
  stock('JNJ', 'Johnson & Johnson', 'US Large Cap', 'Healthcare', 158.64),
  stock('PG', 'Procter & Gamble Company', 'US Large Cap', 'Consumer Defensive', 168.9),
  stock('XOM', 'Exxon Mobil Corporation', 'US Large Cap', 'Energy', 118.27),
  stock('BRK.B', 'Berkshire Hathaway Inc. Class B', 'US Large Cap', 'Financial Services', 452.81),
  {
    ticker: '91282CJL6',
    name: 'US Treasury Note 4.500% 11/15/2033',
    type: 'FixedIncome',
    class: 'Fixed Income',
    subClass: 'US Treasury',
    category: 'Intermediate Government',
    price: 101.34,
  },
  {
    ticker: '912810TM0',
    name: 'US Treasury Bond 4.125% 08/15/2053',
    type: 'FixedIncome',
    class: 'Fixed Income',
    subClass: 'US Treasury',
    category: 'Long Government',
    price: 94.87,
  },
  { ticker: 'CASH', name: 'Cash Sweep', type: 'Cash', class: 'Cash', subClass: 'Cash', category: 'Money Market', price: 1 },
];

/** [ticker, target %, lower band, upper band], bands in percentage points either side of the target. */
export type Allocation = readonly [ticker: string, target: number, lower: number, upper: number];

export interface DemoModel {
  name: string;
  description: string;
  cash: { target: number; lower: number; upper: number };
  allocations: readonly Allocation[];
}

export const MODELS: readonly DemoModel[] = [
  {
    name: 'Conservative Income',
    description: 'Capital preservation with a modest equity sleeve',
    cash: { target: 5, lower: 2, upper: 3 },
    allocations: [
      ['BND', 30, 3, 3],
      ['BNDX', 12, 2, 2],
      ['SHY', 13, 2, 2],
      ['TIP', 10, 2, 2],
      ['VTI', 18, 2, 2],
      ['VEA', 7, 1.5, 1.5],
      ['VIG', 5, 1, 1],
    ],
  },
  {
    name: 'Moderate Balanced',
    description: 'Sixty/forty balanced portfolio',
    cash: { target: 3, lower: 1, upper: 2 },
    allocations: [
      ['VTI', 32, 3, 3],
      ['VEA', 14, 2, 2],
      ['VWO', 5, 1, 1],
      ['IJR', 6, 1, 1],
      ['BND', 25, 3, 3],
      ['BNDX', 8, 1.5, 1.5],
      ['TIP', 7, 1.5, 1.5],
    ],
  },
  {
    name: 'Growth Allocation',
    description: 'Equity-tilted diversified growth',
    cash: { target: 2, lower: 1, upper: 2 },
    allocations: [
      ['VTI', 40, 4, 4],
      ['VEA', 18, 2, 2],
      ['VWO', 8, 1.5, 1.5],
      ['IJH', 7, 1.5, 1.5],
      ['IJR', 5, 1, 1],
      ['VNQ', 5, 1, 1],
      ['BND', 15, 2, 2],
    ],
  },
  {
    name: 'Aggressive Equity',
    description: 'All-equity global growth',
    cash: { target: 1, lower: 0.5, upper: 1.5 },
    allocations: [
      ['VOO', 35, 3, 3],
      ['QQQ', 15, 2, 2],
      ['IWM', 10, 1.5, 1.5],
      ['EFA', 20, 2, 2],
      ['IEMG', 12, 2, 2],
      ['GLD', 7, 1.5, 1.5],
    ],
  },
  {
    name: 'Dividend Income',
    description: 'Dividend payers and investment-grade credit',
    cash: { target: 4, lower: 1, upper: 2 },
    allocations: [
      ['SCHD', 30, 3, 3],
      ['VIG', 20, 2, 2],
      ['VNQ', 8, 1.5, 1.5],
      ['LQD', 18, 2, 2],
      ['AGG', 15, 2, 2],
      ['91282CJL6', 5, 1, 1],
    ],
  },
  {
    name: 'Core Mutual Fund',
    description: 'Low-cost index and active mutual funds',
    cash: { target: 2.5, lower: 1, upper: 1.5 },
    allocations: [
      ['VTSAX', 30, 3, 3],
      ['FXAIX', 12.5, 2, 2],
      ['VTIAX', 15, 2, 2],
      ['DODGX', 8, 1.5, 1.5],
      ['AGTHX', 7, 1.5, 1.5],
      ['VBTLX', 15, 2, 2],
      ['PTTRX', 10, 2, 2],
    ],
  },
  {
    name: 'Tax-Aware Municipal',
    description: 'Municipal bonds with a broad equity core for taxable accounts',
    cash: { target: 3, lower: 1, upper: 2 },
    allocations: [
      ['MUB', 40, 4, 4],
      ['VTI', 35, 3, 3],
      ['VEA', 12, 2, 2],
      ['912810TM0', 5, 1, 1],
      ['VWELX', 5, 1, 1],
    ],
  },
  {
    name: 'Quality Stocks',
    description: 'Concentrated large-cap stocks with an index anchor',
    cash: { target: 2, lower: 1, upper: 2 },
    allocations: [
      ['AAPL', 12, 2, 2],
      ['MSFT', 12, 2, 2],
      ['NVDA', 8, 1.5, 1.5],
      ['AMZN', 8, 1.5, 1.5],
      ['GOOGL', 8, 1.5, 1.5],
      ['JPM', 7, 1.5, 1.5],
      ['JNJ', 6, 1, 1],
      ['PG', 6, 1, 1],
      ['XOM', 5, 1, 1],
      ['BRK.B', 6, 1, 1],
      ['VOO', 20, 2, 2],
    ],
  },
];

/** Ordered alternates of a model product, used where the first choice cannot be bought. */
export const EQUIVALENTS: Readonly<Record<string, readonly string[]>> = {
  VTI: ['ITOT', 'VOO'],
  VEA: ['EFA'],
  VWO: ['IEMG'],
  BND: ['AGG'],
  IJR: ['IWM'],
  VTSAX: ['FXAIX'],
};

/**
 * Share classes of one fund are substantially identical for wash sales (docs/tax-aware.md): the
 * ETF and the Admiral shares of Vanguard's total market funds. Other equivalents are different
 * funds tracking similar indexes, which is what makes them harvest replacements.
 */
export const WASH_SALE_GROUPS: Readonly<Record<string, string>> = {
  VTI: 'Vanguard Total Stock Market',
  VTSAX: 'Vanguard Total Stock Market',
  BND: 'Vanguard Total Bond Market',
  VBTLX: 'Vanguard Total Bond Market',
};

/** Firm-wide substitutions [product, substitute]. */
export const SUBSTITUTIONS: readonly (readonly [string, string])[] = [
  ['VWO', 'IEMG'],
  ['BND', 'AGG'],
];

/** Blends of models, weights totalling 100. */
export const MODEL_AGGS: readonly { name: string; models: readonly (readonly [string, number])[] }[] = [
  { name: 'Balanced Core Blend', models: [['Moderate Balanced', 60], ['Core Mutual Fund', 40]] },
  { name: 'Income Blend', models: [['Conservative Income', 50], ['Dividend Income', 30], ['Tax-Aware Municipal', 20]] },
  { name: 'Growth Blend', models: [['Growth Allocation', 70], ['Aggressive Equity', 30]] },
];

export const TEAMS: readonly { name: string; models: readonly string[] }[] = [
  { name: 'Investment Committee', models: MODELS.map((m) => m.name) },
  { name: 'Income Strategies', models: ['Conservative Income', 'Dividend Income', 'Tax-Aware Municipal'] },
  { name: 'Growth Strategies', models: ['Growth Allocation', 'Aggressive Equity', 'Quality Stocks'] },
];

export const BROKER_DEALERS: readonly { name: string; code: string }[] = [
  { name: 'Summit Securities LLC', code: 'SUMMIT' },
  { name: 'Harborview Financial Services', code: 'HARBOR' },
  { name: 'Cornerstone Capital Markets', code: 'CORNER' },
];

export const CUSTODIANS: readonly { name: string; prefix: string }[] = [
  { name: 'Charles Schwab', prefix: '4' },
  { name: 'Fidelity Institutional', prefix: 'Z' },
  { name: 'Pershing', prefix: 'P' },
  { name: 'TD Ameritrade Institutional', prefix: '9' },
];

export const REGISTRATION_TYPES: readonly string[] = [
  'Individual',
  'Joint',
  'Traditional IRA',
  'Roth IRA',
  'Rollover IRA',
  'SEP IRA',
  'Revocable Trust',
  '529 Plan',
];

export const FIRST_NAMES: readonly string[] = (
  'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph ' +
  'Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra ' +
  'Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy ' +
  'George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen'
).split(' ');

export const LAST_NAMES: readonly string[] = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson ' +
  'Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis ' +
  'Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera ' +
  'Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart ' +
  'Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim'
).split(' ');

/**
 * The demo firm's custom fields (section 2.16): every level, every type, and one field
 * (COMPLIANCE_NOTE) that only platform administrators may change. `share` is the fraction of
 * records holding a value; `values` draws one.
 */
export type DemoFieldValues =
  | { kind: 'pick'; from: readonly string[] }
  | { kind: 'number'; min: number; max: number; step: number }
  | { kind: 'date'; fromDays: number; toDays: number }
  | { kind: 'boolean' };

export interface DemoCustomField {
  entity: 'Representative' | 'Household' | 'Registration' | 'Account' | 'Product';
  code: string;
  name: string;
  category: string;
  type: 'Text' | 'Number' | 'Date' | 'List' | 'Boolean';
  options?: readonly string[];
  securityCode?: string;
  share: number;
  values: DemoFieldValues;
}

const list = (options: readonly string[]) => ({ type: 'List' as const, options, values: { kind: 'pick' as const, from: options } });

export const CUSTOM_FIELDS: readonly DemoCustomField[] = [
  { entity: 'Representative', code: 'BRANCH_OFFICE', name: 'Branch Office', category: 'Practice', type: 'Text', share: 0.9, values: { kind: 'pick', from: ['Denver', 'Boulder', 'Chicago', 'Austin', 'Charlotte', 'Scottsdale'] } },
  { entity: 'Representative', code: 'AUM_GOAL', name: 'AUM Goal', category: 'Practice', type: 'Number', share: 0.6, values: { kind: 'number', min: 50_000_000, max: 750_000_000, step: 5_000_000 } },
  { entity: 'Representative', code: 'LICENSE_RENEWAL', name: 'License Renewal Date', category: 'Compliance', type: 'Date', share: 0.8, values: { kind: 'date', fromDays: 30, toDays: 720 } },
  { entity: 'Household', code: 'RISK_TOLERANCE', name: 'Risk Tolerance', category: 'Suitability', ...list(['Conservative', 'Moderately Conservative', 'Moderate', 'Moderately Aggressive', 'Aggressive']), share: 0.7 },
  { entity: 'Household', code: 'PREFERRED_CONTACT', name: 'Preferred Contact', category: 'Service', ...list(['Email', 'Phone', 'Text Message', 'Mail']), share: 0.4 },
  { entity: 'Household', code: 'NEXT_REVIEW', name: 'Next Review Date', category: 'Service', type: 'Date', share: 0.5, values: { kind: 'date', fromDays: 1, toDays: 365 } },
  { entity: 'Household', code: 'ANNUAL_INCOME', name: 'Annual Income', category: 'Financials', type: 'Number', share: 0.3, values: { kind: 'number', min: 40_000, max: 900_000, step: 1000 } },
  {
    entity: 'Household', code: 'COMPLIANCE_NOTE', name: 'Compliance Note', category: 'Compliance', type: 'Text', securityCode: 'platform.admin', share: 0.05,
    values: { kind: 'pick', from: ['KYC refresh due', 'Trusted contact on file', 'Senior investor review', 'Concentrated position acknowledged'] },
  },
  { entity: 'Registration', code: 'TAX_STATUS', name: 'Tax Status', category: 'Tax', ...list(['Taxable', 'Tax-Deferred', 'Tax-Exempt']), share: 0.6 },
  { entity: 'Registration', code: 'BENEFICIARY_ON_FILE', name: 'Beneficiary On File', category: 'Documents', type: 'Boolean', share: 0.3, values: { kind: 'boolean' } },
  { entity: 'Account', code: 'INVESTMENT_OBJECTIVE', name: 'Investment Objective', category: 'Suitability', ...list(['Growth', 'Growth & Income', 'Income', 'Capital Preservation']), share: 0.5 },
  { entity: 'Account', code: 'IPS_SIGNED', name: 'IPS Signed', category: 'Documents', type: 'Date', share: 0.35, values: { kind: 'date', fromDays: -1800, toDays: -1 } },
  { entity: 'Product', code: 'DUE_DILIGENCE', name: 'Due Diligence Status', category: 'Research', ...list(['Approved', 'On Watch', 'Restricted']), share: 0.9 },
  { entity: 'Product', code: 'LAST_REVIEWED', name: 'Last Reviewed', category: 'Research', type: 'Date', share: 0.6, values: { kind: 'date', fromDays: -365, toDays: -1 } },
];
