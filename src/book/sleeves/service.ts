import { type Clock, isoNow } from '../../shared/clock.js';
import { notFound, validationFailed } from '../../shared/errors.js';
import { centsToDollars } from '../../shared/money.js';
import { heldValueCents } from '../../shared/holding-values.js';
import type { Actor } from '../../trade-blocks/writes.js';
import type { SleeveDoNotTrade } from './do-not-trade.js';
import { type ProcessPlan, type SleeveWrite, planProcess } from './process.js';
import type { SleeveRepository } from './repository.js';
import {
  type AccountSleeveRecord,
  type DoNotTradeItem,
  ModelType,
  type SleeveRegistrationInput,
  type SleeveRegistrationRecord,
  type SleeveTransferRecord,
  SleeveType,
} from './schemas.js';
import { type Loaded, type Sleeve, settingsOf, sleevesOf } from './state.js';

const round = (n: number) => Math.round(n * 10_000) / 10_000;
const defined = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** Sections 2.15 and 4.8: a registration's sleeves, their processing, and registration-level do-not-trade. */
export class SleeveService {
  constructor(
    private readonly repository: SleeveRepository,
    private readonly doNotTrade: SleeveDoNotTrade,
    private readonly clock: Clock,
  ) {}

  async get(firmId: number, registrationId: number): Promise<SleeveRegistrationRecord> {
    return this.record(firmId, await this.load(this.repository, firmId, registrationId, false));
  }

  /** Adds, changes and removes Normal Sleeves in one transaction; answers the committed state. */
  async process(actor: Actor, input: SleeveRegistrationInput): Promise<SleeveRegistrationRecord> {
    const { firmId } = actor;
    const now = isoNow(this.clock);
    await this.repository.transaction(async (repository) => {
      const loaded = await this.load(repository, firmId, input.registrationId, true);
      const named = new Set(input.accountSleeves.map((s) => s.accountId ?? 0));
      const current = sleevesOf(loaded);
      const modelIds = [...new Set([...input.accountSleeves.map((s) => s.modelAggId), ...current.map((s) => s.account.model_id)].filter(defined))];
      const productIds = [...new Set(input.accountSleeves.flatMap((s) => [s.sweepAssetId, ...(s.modelAllocations ?? []).map((a) => a.productId)]).filter(defined))];
      const lookups = {
        models: new Map((await repository.models(firmId, modelIds)).map((m) => [m.id, m.name])),
        selfDirectedOwners: await repository.selfDirectedModels(firmId, modelIds),
        products: await repository.existingProducts(firmId, productIds),
        holdings: await repository.holdingsCount(firmId, current.filter((s) => !s.system && !named.has(s.account.id)).map((s) => s.account.id)),
      };
      const { problems, plan } = planProcess(input, loaded, lookups, now.slice(0, 10));
      if (problems.length > 0) throw validationFailed(problems);
      await this.write(repository, actor, loaded, plan, now);
    });
    return this.get(firmId, input.registrationId);
  }

  updateDoNotTrade(actor: Actor, items: DoNotTradeItem[], syncToEclipse: boolean) {
    return this.doNotTrade.update(actor, items, syncToEclipse);
  }

  /** A page of the instance's transfers (a registration rebalance of a large firm moves cash in thousands), with their total. */
  async transfers(firmId: number, tradeInstanceId: number, page: { top: number; skip: number }): Promise<{ items: SleeveTransferRecord[]; total: number }> {
    if (!(await this.repository.tradeInstance(firmId, tradeInstanceId))) throw notFound('trade instance', tradeInstanceId);
    const { rows, total } = await this.repository.transfersOf(firmId, tradeInstanceId, page);
    const items = rows.map((t) => ({
      id: t.id,
      tradeInstanceId: t.trade_instance_id,
      batchProcessingId: t.batch_id,
      registrationId: t.registration_id,
      accountId: t.account_id,
      accountNumber: t.number,
      amount: centsToDollars(Number(t.amount_cents)),
      currentAllocation: round(t.current_pct),
      targetAllocation: t.target_pct,
      outOfBand: t.out_of_band === 1,
      status: t.status,
    }));
    return { items, total };
  }

  private async load(repository: SleeveRepository, firmId: number, registrationId: number, lock: boolean): Promise<Loaded> {
    const registration = await repository.registration(firmId, registrationId, lock);
    if (!registration) throw notFound('registration', registrationId);
    const accounts = await repository.accountsOf(firmId, registrationId);
    const rows = new Map((await repository.sleeveRowsOf(firmId, registrationId)).map((r) => [r.account_id, r]));
    return { registration, accounts, rows, settings: await repository.settingsOf(firmId, registrationId) };
  }

  private async record(firmId: number, loaded: Loaded): Promise<SleeveRegistrationRecord> {
    const sleeves = sleevesOf(loaded);
    const held = heldValueCents(await this.repository.holdingsOf(firmId, sleeves.map((s) => s.account.id)));
    const values = new Map(sleeves.map((s) => [s.account.id, Number(s.account.cash_cents) + (held.get(s.account.id) ?? 0)]));
    const normalTotal = sleeves.filter((s) => !s.system).reduce((sum, s) => sum + values.get(s.account.id)!, 0);
    const selfDirected = (s: Sleeve) => !s.system && s.row?.self_directed === 1;
    const names = new Map((await this.repository.models(firmId, [...new Set(sleeves.map((s) => s.account.model_id).filter(defined))])).map((m) => [m.id, m.name]));
    const ownModels = sleeves.filter(selfDirected).map((s) => s.row!.self_directed_model_id).filter(defined);
    const allocations = await this.repository.allocationsOf(firmId, ownModels);
    const settings = settingsOf(loaded);
    const stored = loaded.settings;
    const custodial = sleeves.find((s) => s.type === SleeveType.Custodial);

    const sleeveRecord = (sleeve: Sleeve): AccountSleeveRecord => {
      const { account, row } = sleeve;
      const value = values.get(account.id)!;
      const self = selfDirected(sleeve);
      const strategy = !sleeve.system && !self;
      return {
        accountId: account.id,
        accountNumber: account.number,
        registrationId: loaded.registration.id,
        sleeveType: sleeve.type,
        sleeveDescription: row?.description ?? account.name,
        targetAllocation: account.sleeve_target_pct,
        currentAllocation: normalTotal > 0 ? round((value / normalTotal) * 100) : 0,
        currentValue: centsToDollars(value),
        toleranceLower: account.sleeve_tolerance_lower,
        toleranceUpper: account.sleeve_tolerance_upper,
        contributionAllocation: row?.contribution_pct ?? null,
        distributionAllocation: row?.distribution_pct ?? null,
        corporateActionAllocation: row?.corporate_action_pct ?? null,
        sweepAssetId: row?.sweep_asset_id ?? null,
        modelAggId: strategy ? account.model_id : null,
        modelAgg: strategy && account.model_id !== null ? (names.get(account.model_id) ?? null) : null,
        modelType: sleeve.system ? null : self ? ModelType.SelfDirected : ModelType.Strategy,
        modelId: account.model_id,
        managementStyleId: row?.management_style_id ?? null,
        managementStyle: row?.management_style ?? null,
        subAdvisorId: row?.sub_advisor_id ?? null,
        subAdvisor: row?.sub_advisor ?? null,
        modelAllocations: self
          ? allocations
              .filter((a) => a.model_id === row!.self_directed_model_id)
              .map((a) => ({
                id: a.id,
                productId: a.product_id,
                productName: a.name,
                productClass: a.class,
                ticker: a.ticker,
                targetPercent: a.target_pct,
                lowerTolerance: a.lower_pct,
                upperTolerance: a.upper_pct,
              }))
          : null,
      };
    };

    return {
      registrationId: loaded.registration.id,
      ...settings,
      custodialAccountNumber: custodial?.account.number ?? null,
      doNotTrade: await this.doNotTrade.isBlocked(firmId, loaded.registration),
      createdBy: stored?.created_by ?? null,
      createdDate: stored?.created_at ?? null,
      editedBy: stored?.edited_by ?? null,
      editedDate: stored?.edited_at ?? null,
      accountSleeves: sleeves.map(sleeveRecord),
    };
  }

  private async write(repository: SleeveRepository, actor: Actor, loaded: Loaded, plan: ProcessPlan, now: string) {
    const { firmId, userName } = actor;
    const registration = loaded.registration;
    const audit = { edited_at: now, edited_by: userName };
    const created = { created_at: now, created_by: userName, ...audit };
    if (plan.custodialAccountId !== null) {
      await repository.markSleeved(firmId, registration.id, audit);
      await repository.updateAccount(firmId, plan.custodialAccountId, {
        sleeve_type: SleeveType.Custodial,
        sleeve_target_pct: null,
        sleeve_tolerance_lower: null,
        sleeve_tolerance_upper: null,
        ...audit,
      });
    }
    const s = plan.settings;
    await repository.saveSettings(firmId, registration.id, {
      sleeve_strategy_id: s.sleeveStrategyId,
      is_active: 1,
      as_of_date: s.asOfDate,
      contribution_method: s.contributionAllocationMethod,
      distribution_method: s.distributionAllocationMethod,
      corporate_action_method: s.corporateActionAllocationMethod,
      auto_rebal_frequency: s.autoRebalFrequency,
      auto_rebal_month: s.autoRebalMonth,
      auto_rebal_day: s.autoRebalDay,
      mandate: s.mandate ? 1 : 0,
      ...created,
    });

    // New sleeve accounts are numbered after the custodial account: 12345678-S1, -S2, …
    const base = loaded.accounts.find((a) => a.id === plan.custodialAccountId || a.sleeve_type === SleeveType.Custodial) ?? loaded.accounts[0];
    const prefix = `${base?.number ?? `R${registration.id}`}-S`;
    const taken = await repository.numbersTaken(firmId, prefix);
    let serial = 0;
    for (const w of plan.writes) {
      let accountId: number;
      let number: string;
      if (w.current) {
        accountId = w.current.account.id;
        number = w.current.account.number;
      } else {
        do serial++;
        while (taken.has(`${prefix}${serial}`));
        number = `${prefix}${serial}`;
        taken.add(number);
        accountId = await repository.insertAccount({
          firm_id: firmId,
          registration_id: registration.id,
          number,
          name: `${registration.name} - ${w.description ?? `Sleeve ${serial}`}`.slice(0, 200),
          custodian: base?.custodian ?? 'Custodian',
          model_id: null,
          cash_cents: 0,
          is_trading_blocked: 0,
          restricted_plan_id: null,
          is_active: 1,
          sleeve_type: SleeveType.Normal,
          sleeve_target_pct: w.target,
          sleeve_tolerance_lower: w.lower,
          sleeve_tolerance_upper: w.upper,
          ...created,
        });
      }
      const { modelId, ownModelId } = await this.model(repository, actor, w, accountId, number, registration.name, now);
      await repository.updateAccount(firmId, accountId, {
        sleeve_type: SleeveType.Normal,
        sleeve_target_pct: w.target,
        sleeve_tolerance_lower: w.lower,
        sleeve_tolerance_upper: w.upper,
        model_id: modelId,
        ...audit,
      });
      await repository.saveSleeveRow(firmId, accountId, {
        registration_id: registration.id,
        description: w.description,
        contribution_pct: w.contribution,
        distribution_pct: w.distribution,
        corporate_action_pct: w.corporateAction,
        management_style_id: w.managementStyleId,
        management_style: w.managementStyle,
        sub_advisor_id: w.subAdvisorId,
        sub_advisor: w.subAdvisor,
        sweep_asset_id: w.sweepAssetId,
        self_directed: w.model.kind === 'self' ? 1 : 0,
        self_directed_model_id: ownModelId,
        removed_at: null,
        removed_by: null,
        ...created,
      });
    }

    // A removed sleeve's account stays for its history (trades, blocks, realized gains), closed and
    // out of the sleeves; its positions, lots and cash move to the Custodial Account first.
    for (const { account, row } of plan.removals) {
      if (plan.holdingsTo !== null) await repository.moveHoldings(firmId, account.id, plan.holdingsTo, audit);
      await repository.updateAccount(firmId, account.id, { is_active: 0, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, ...audit });
      if (row?.self_directed === 1 && row.self_directed_model_id !== null) await repository.setModelActive(firmId, row.self_directed_model_id, false, { at: now, by: userName });
      await repository.saveSleeveRow(firmId, account.id, { registration_id: registration.id, self_directed: row?.self_directed ?? 0, removed_at: now, removed_by: userName, ...created });
    }
  }

  /** The sleeve account's model: the strategy model, or its own self-directed model (created on first use). */
  private async model(repository: SleeveRepository, actor: Actor, w: SleeveWrite, accountId: number, number: string, registrationName: string, now: string) {
    const row = w.current?.row;
    const audit = { at: now, by: actor.userName };
    let own = row?.self_directed_model_id ?? null;
    if (w.model.kind === 'strategy') {
      if (row?.self_directed === 1 && own !== null) await repository.setModelActive(actor.firmId, own, false, audit);
      return { modelId: w.model.modelId, ownModelId: own };
    }
    if (own === null) {
      let name = `Self-directed sleeve ${number}`;
      if (await repository.modelNameTaken(actor.firmId, name)) name = `${name} (${accountId})`;
      own = await repository.createModel(actor.firmId, name, `Own model of sleeve ${number} (${registrationName})`, audit);
    } else if (row?.self_directed !== 1) {
      await repository.setModelActive(actor.firmId, own, true, audit);
    }
    if (w.model.allocations) await repository.replaceAllocations(actor.firmId, own, w.model.allocations);
    return { modelId: own, ownModelId: own };
  }
}
