import { groupBy } from '../../shared/group-by.js';
import { centsToDollars } from '../../shared/money.js';
import { heldValueCents } from '../../shared/holding-values.js';
import type { HouseholdDetailsRepository } from './repository.js';
import type { HouseholdDetails } from './schemas.js';

/** A household before its details are read: what its own row says, nothing of the book below it. */
export function bareDetails(household: { name: string; representativeId: number }): HouseholdDetails {
  return {
    billing: { isBillable: false, feeScheduleId: null, billingFrequency: null, billingStartDate: null },
    recurringAdjustments: [],
    feePayingAccounts: [],
    tieredFeeAccounts: [],
    householdBills: [],
    financialPlanningFee: null,
    portfolio: {
      name: household.name,
      representativeId: household.representativeId,
      representativeName: null,
      registrationCount: 0,
      accountCount: 0,
      activeAccountCount: 0,
      cash: 0,
      holdingsValue: 0,
      totalValue: 0,
    },
    householdMembers: [],
    documents: [],
    additionalAccounts: [],
    suitability: { riskScore: null, riskCategory: null, surveyDate: null },
    entityOptions: [],
    targetAllocations: [],
    creditCard: null,
    assetExclusions: [],
    portfolioGroups: [],
    appLinks: [],
    additionalRepresentatives: [],
  };
}

/** Fills each household's details from its registrations, accounts, holdings and risk survey: five queries a page. */
export async function withHouseholdDetails<H extends { id: number; name: string; representativeId: number } & HouseholdDetails>(
  repository: HouseholdDetailsRepository,
  firmId: number,
  households: H[],
): Promise<H[]> {
  if (households.length === 0) return households;
  const ids = households.map((h) => h.id);
  const [registrations, accounts, representatives, surveys] = await Promise.all([
    repository.registrationsOf(firmId, ids),
    repository.accountsOf(firmId, ids),
    repository.representativesOf(firmId, [...new Set(households.map((h) => h.representativeId))]),
    repository.surveysOf(firmId, ids),
  ]);
  const accountIds = accounts.map((a) => a.id);
  const holdings = heldValueCents(accountIds.length === 0 ? [] : await repository.pricedHoldingsOf(firmId, accountIds));
  const representativeName = new Map(representatives.map((r) => [r.id, r.name]));
  const survey = new Map(surveys.map((s) => [s.household_id, s]));
  // Grouped once: filtering the page's accounts for each household costs households × accounts.
  const accountsOf = groupBy(accounts, (a) => a.client_id);
  const registrationsOf = groupBy(registrations, (g) => g.client_id);

  return households.map((household) => {
    const own = accountsOf.get(household.id) ?? [];
    const members = registrationsOf.get(household.id) ?? [];
    const totalCents = (a: (typeof own)[number]) => Number(a.cash_cents) + (holdings.get(a.id) ?? 0);
    const cashCents = own.reduce((sum, a) => sum + Number(a.cash_cents), 0);
    const holdingsCents = own.reduce((sum, a) => sum + (holdings.get(a.id) ?? 0), 0);

    const byModel = new Map<number, { modelName: string; accountIds: number[]; cents: number }>();
    for (const a of own) {
      if (a.model_id === null) continue;
      const entry = byModel.get(a.model_id) ?? { modelName: a.model_name ?? '', accountIds: [], cents: 0 };
      entry.accountIds.push(a.id);
      entry.cents += totalCents(a);
      byModel.set(a.model_id, entry);
    }
    const modelledCents = [...byModel.values()].reduce((sum, m) => sum + m.cents, 0);
    const result = survey.get(household.id);

    return {
      ...household,
      portfolio: {
        name: household.name,
        representativeId: household.representativeId,
        representativeName: representativeName.get(household.representativeId) ?? null,
        registrationCount: members.length,
        accountCount: own.length,
        activeAccountCount: own.filter((a) => a.is_active === 1).length,
        cash: centsToDollars(cashCents),
        holdingsValue: centsToDollars(holdingsCents),
        totalValue: centsToDollars(cashCents + holdingsCents),
      },
      householdMembers: members.map((g) => ({ registrationId: g.id, name: g.name, registrationType: g.type })),
      additionalAccounts: own.map((a) => ({
        id: a.id,
        number: a.number,
        name: a.name,
        custodian: a.custodian,
        registrationId: a.registration_id,
        modelId: a.model_id,
        isActive: a.is_active === 1,
        totalValue: centsToDollars(totalCents(a)),
      })),
      suitability: result
        ? { riskScore: result.risk_score, riskCategory: result.category, surveyDate: result.created_at }
        : { riskScore: null, riskCategory: null, surveyDate: null },
      targetAllocations: [...byModel].map(([modelId, m]) => ({
        modelId,
        modelName: m.modelName,
        accountIds: m.accountIds,
        value: centsToDollars(m.cents),
        percent: modelledCents === 0 ? 0 : Math.round((m.cents / modelledCents) * 10000) / 100,
      })),
      assetExclusions: own
        .filter((a) => a.restricted_plan_id !== null)
        .map((a) => ({ accountId: a.id, restrictedPlanId: a.restricted_plan_id!, restrictedPlanName: a.restricted_plan_name ?? '' })),
    };
  });
}
