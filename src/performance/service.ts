// Performance records of accounts, registrations and households: the history read from the
// repository, the returns computed by the pure rules in src/engine/performance.
import type { Principal } from '../auth/service.js';
import { aggregateHistory, annualize, benchmarkSeries, blendSeries, carriedValue, dailySeries, type HistoryDay, isoOf, measure, type Measurement, parseDay, roundReturn, standardPeriods } from '../engine/performance/index.js';
import type { BenchmarkLine, StandardPeriod } from '../engine/performance/index.js';
import { notFound, validationError, validationFailed } from '../shared/errors.js';
import type { MemberHistory, PerformanceEntity, PerformanceRepository } from './repository.js';

export type { PerformanceEntity } from './repository.js';

export interface PerformanceQuery {
  startDate?: string;
  endDate?: string;
}

export interface PeriodRow {
  period: StandardPeriod;
  startDate: string;
  endDate: string;
  inception: boolean;
  twrNet: number | null;
  twrGross: number | null;
  twrNetAnnualized: number | null;
  mwr: number | null;
}

export interface PerformanceRecord {
  entity: PerformanceEntity;
  id: number;
  name: string;
  startDate: string | null;
  endDate: string | null;
  inception: boolean;
  beginningValue: number | null;
  endingValue: number | null;
  netFlows: number | null;
  fees: number | null;
  income: number | null;
  gainLoss: number | null;
  twrNet: number | null;
  twrGross: number | null;
  twrNetAnnualized: number | null;
  twrGrossAnnualized: number | null;
  mwr: number | null;
  mwrAnnualized: number | null;
  benchmark: { name: string; twr: number; twrAnnualized: number | null } | null;
  periods: PeriodRow[];
}

export interface DailyRow {
  date: string;
  marketValue: number;
  netFlow: number;
  fees: number;
  income: number;
  twrNetCumulative: number;
}

export interface ReportView {
  record: PerformanceRecord;
  daily: DailyRow[];
  /** Cumulative benchmark return by date over the same period, or null. */
  benchmarkSeries: { date: string; cumulative: number }[] | null;
  /** One record per account of a registration or household (the same period); empty for an account. */
  accounts: (PerformanceRecord & { number: string })[];
}

const ENTITY_LABEL: Record<PerformanceEntity, string> = { Accounts: 'Account', Registrations: 'Registration', Clients: 'Client' };
/** Entities measured per batch step: bounds the rows in memory to about 100 households' histories. */
const BATCH_STEP = 100;

/** How long a model's benchmark inputs are reused: a price stored now shows in benchmarks within a minute. */
const BENCHMARK_TTL_MS = 60_000;
/** Models kept at once; past it the cache starts over (bounded memory whatever the number of firms). */
const MAX_KEPT_BENCHMARKS = 200;

const money = (cents: number): number => Math.round(cents) / 100;

interface Period {
  startDay?: number;
  endDay?: number;
}

interface Measured {
  history: HistoryDay[];
  members: MemberHistory[];
  measurement: Measurement | null;
}

export class PerformanceService {
  private readonly benchmarks = new Map<string, { value: ModelBenchmark | null; until: number }>();

  constructor(private readonly repo: PerformanceRepository) {}

  /** `startDate` and `endDate` checked and turned into days; a 400 names the parameter. */
  period(query: PerformanceQuery, where: 'querystring' | 'body' = 'querystring'): Period {
    // Body fields are named bare, query parameters with their part, as the validation errors name them.
    const prefix = where === 'body' ? '' : `${where}.`;
    const problems: { field: string; message: string }[] = [];
    const read = (name: 'startDate' | 'endDate'): number | undefined => {
      const text = query[name];
      if (text === undefined || text === '') return undefined;
      const day = parseDay(text);
      if (day === null) problems.push({ field: `${prefix}${name}`, message: `must be a date YYYY-MM-DD; got "${text}"` });
      return day ?? undefined;
    };
    const startDay = read('startDate');
    const endDay = read('endDate');
    if (startDay !== undefined && endDay !== undefined && endDay < startDay) problems.push({ field: `${prefix}endDate`, message: `must not be before startDate (${query.startDate})` });
    if (problems.length > 0) throw validationFailed(problems);
    return { startDay, endDay };
  }

  async record(principal: Principal, entity: PerformanceEntity, id: number, query: PerformanceQuery): Promise<PerformanceRecord> {
    const period = this.period(query);
    const { name, measured } = await this.measureOne(principal.firmId, entity, id, period);
    return this.toRecord(principal.firmId, entity, id, name, measured, new Map());
  }

  async daily(principal: Principal, entity: PerformanceEntity, id: number, query: PerformanceQuery): Promise<DailyRow[]> {
    const period = this.period(query);
    const { measured } = await this.measureOne(principal.firmId, entity, id, period);
    if (!measured.measurement) return [];
    return dailySeries(measured.history, measured.measurement).map((p) => ({
      date: isoOf(p.day),
      marketValue: money(p.value),
      netFlow: money(p.flow),
      fees: money(p.fee),
      income: money(p.income),
      twrNetCumulative: p.twrNetCumulative,
    }));
  }

  async report(principal: Principal, entity: PerformanceEntity, id: number, query: PerformanceQuery): Promise<ReportView> {
    const period = this.period(query);
    const firmId = principal.firmId;
    const { name, measured } = await this.measureOne(firmId, entity, id, period);
    const models = new Map<number, ModelBenchmark | null>();
    const record = await this.toRecord(firmId, entity, id, name, measured, models);
    const m = measured.measurement;
    const daily = m
      ? dailySeries(measured.history, m).map((p) => ({ date: isoOf(p.day), marketValue: money(p.value), netFlow: money(p.flow), fees: money(p.fee), income: money(p.income), twrNetCumulative: p.twrNetCumulative }))
      : [];
    const bench = m ? await this.benchmarkOf(firmId, measured, m, models) : null;
    const series: ReportView['benchmarkSeries'] = bench ? bench.series.map((p) => ({ date: isoOf(p.day), cumulative: p.cumulative })) : null;
    const accounts: ReportView['accounts'] = [];
    if (entity !== 'Accounts' && m) {
      // Each account over the household's period, so the rows read against the total.
      const memberPeriod = { startDay: period.startDay ?? m.startDay, endDay: m.endDay };
      const members = await this.measureMany(firmId, 'Accounts', measured.members.map((a) => a.id), memberPeriod);
      for (const [i, account] of measured.members.entries()) {
        const row = await this.toRecord(firmId, 'Accounts', account.id, account.name, members[i] as Measured, models);
        accounts.push({ ...row, number: account.number });
      }
    }
    return { record, daily, benchmarkSeries: series, accounts };
  }

  firmName(principal: Principal): Promise<string> {
    return this.repo.firmName(principal.firmId);
  }

  /** The records of many entities (or, without ids, a page of all of the firm's), in the order asked. */
  async batch(principal: Principal, body: { entity: PerformanceEntity; ids?: number[]; startDate?: string; endDate?: string }, top: number, skip: number): Promise<PerformanceRecord[]> {
    const period = this.period(body, 'body');
    const firmId = principal.firmId;
    const ids = body.ids ? body.ids.slice(skip, skip + top) : await this.repo.idsPage(firmId, body.entity, top, skip);
    const out: PerformanceRecord[] = [];
    const models = new Map<number, ModelBenchmark | null>();
    for (let i = 0; i < ids.length; i += BATCH_STEP) {
      const step = ids.slice(i, i + BATCH_STEP);
      const found = await this.repo.namesOf(firmId, body.entity, step);
      const names = step.map((id) => found.get(id));
      const missing = names.findIndex((n) => n === undefined);
      if (missing >= 0) {
        const at = (body.ids ? skip : 0) + i + missing;
        throw validationError(`ids[${at}]`, `no ${ENTITY_LABEL[body.entity].toLowerCase()} ${step[missing]} in your firm`);
      }
      const measured = await this.measureMany(firmId, body.entity, step, period);
      for (const [k, id] of step.entries()) out.push(await this.toRecord(firmId, body.entity, id, names[k] as string, measured[k] as Measured, models));
    }
    return out;
  }

  /**
   * One entity measured, with its name; 404 when it is not the firm's. An account is read with its
   * history in one statement; a registration or household is named first, as it may have no accounts.
   */
  private async measureOne(firmId: number, entity: PerformanceEntity, id: number, period: Period): Promise<{ name: string; measured: Measured }> {
    const name = entity === 'Accounts' ? undefined : await this.repo.nameOf(firmId, entity, id);
    if (entity !== 'Accounts' && name === undefined) throw notFound(ENTITY_LABEL[entity], id);
    const [measured] = (await this.measureMany(firmId, entity, [id], period)) as [Measured];
    if (entity === 'Accounts') {
      const account = measured.members[0];
      if (!account) throw notFound(ENTITY_LABEL[entity], id);
      return { name: account.name, measured };
    }
    return { name: name as string, measured };
  }

  private async measureMany(firmId: number, entity: PerformanceEntity, ids: readonly number[], period: Period): Promise<Measured[]> {
    const until = period.endDay === undefined ? undefined : isoOf(period.endDay);
    const members = await this.repo.membersWithHistories(firmId, entity, ids, until);
    return ids.map((id) => {
      const accounts = members.get(id) ?? [];
      const history = entity === 'Accounts' ? (accounts[0]?.history ?? []) : aggregateHistory(accounts.map((a) => a.history));
      return { history, members: accounts, measurement: measure(history, period.startDay, period.endDay) };
    });
  }

  private async toRecord(firmId: number, entity: PerformanceEntity, id: number, name: string, measured: Measured, models: Map<number, ModelBenchmark | null>): Promise<PerformanceRecord> {
    const m = measured.measurement;
    if (!m) {
      return {
        entity, id, name, startDate: null, endDate: null, inception: false,
        beginningValue: null, endingValue: null, netFlows: null, fees: null, income: null, gainLoss: null,
        twrNet: null, twrGross: null, twrNetAnnualized: null, twrGrossAnnualized: null, mwr: null, mwrAnnualized: null,
        benchmark: null, periods: [],
      };
    }
    const bench = await this.benchmarkOf(firmId, measured, m, models);
    let benchmark: PerformanceRecord['benchmark'] = null;
    if (bench) {
      const twr = (bench.series[bench.series.length - 1] as { cumulative: number }).cumulative;
      const annual = annualize(twr, m.endDay - m.beginDay);
      benchmark = { name: bench.name, twr: roundReturn(twr), twrAnnualized: annual === null ? null : roundReturn(annual) };
    }
    return {
      entity, id, name,
      startDate: isoOf(m.startDay),
      endDate: isoOf(m.endDay),
      inception: m.inception,
      beginningValue: money(m.beginningValue),
      endingValue: money(m.endingValue),
      netFlows: money(m.netFlows),
      fees: money(m.fees),
      income: money(m.income),
      gainLoss: money(m.gainLoss),
      twrNet: m.twrNet,
      twrGross: m.twrGross,
      twrNetAnnualized: m.twrNetAnnualized,
      twrGrossAnnualized: m.twrGrossAnnualized,
      mwr: m.mwr,
      mwrAnnualized: m.mwrAnnualized,
      benchmark,
      periods: standardPeriods(measured.history, m.endDay).map(({ period, measurement: p }) => ({
        period,
        startDate: isoOf(p.startDay),
        endDate: isoOf(p.endDay),
        inception: p.inception,
        twrNet: p.twrNet,
        twrGross: p.twrGross,
        twrNetAnnualized: p.twrNetAnnualized,
        mwr: p.mwr,
      })),
    };
  }

  /**
   * The benchmark of a measured entity over its period (docs/decisions/performance-aggregates-and-benchmark.md):
   * its accounts' models' benchmarks weighted by the accounts' values at the period's beginning
   * close (as the aggregate counts them), held in those proportions. One model among the weighted
   * accounts: that model's benchmark. Null when nothing is weighted, or when a weighted account
   * has no model or its model's benchmark is null.
   */
  private async benchmarkOf(firmId: number, measured: Measured, m: Measurement, models: Map<number, ModelBenchmark | null>): Promise<{ name: string; series: { day: number; cumulative: number }[] } | null> {
    const weightOf = new Map<number, number>();
    let total = 0;
    for (const account of measured.members) {
      const value = measured.members.length === 1 ? m.beginningValue : (carriedValue(account.history, m.beginDay) ?? 0);
      if (value <= 0) continue;
      if (account.modelId === null) return null;
      weightOf.set(account.modelId, (weightOf.get(account.modelId) ?? 0) + value);
      total += value;
    }
    if (total <= 0) return null;
    const parts: { name: string; weight: number; series: { day: number; cumulative: number }[] }[] = [];
    for (const [modelId, value] of weightOf) {
      const model = await this.modelBenchmark(firmId, modelId, models);
      const series = model ? benchmarkSeries(model.lines, m.beginDay, m.endDay) : null;
      if (!model || !series) return null;
      parts.push({ name: model.name, weight: value / total, series });
    }
    if (parts.length === 1) return parts[0] as (typeof parts)[0];
    parts.sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
    const name = `Blend: ${parts.map((p) => `${p.name} ${formatWeight(p.weight)}`).join(', ')}`;
    return { name, series: blendSeries(parts) };
  }

  /**
   * A model's targets with their price histories, read once per call however many entities follow
   * it, and kept for BENCHMARK_TTL_MS across calls: three years of a model's prices are most of a
   * single account's read, and prices change once a day.
   */
  private async modelBenchmark(firmId: number, modelId: number, cache: Map<number, ModelBenchmark | null>): Promise<ModelBenchmark | null> {
    if (cache.has(modelId)) return cache.get(modelId) ?? null;
    const key = `${firmId}:${modelId}`;
    const kept = this.benchmarks.get(key);
    if (kept && kept.until > Date.now()) {
      cache.set(modelId, kept.value);
      return kept.value;
    }
    const targets = await this.repo.modelTargets(firmId, modelId);
    let result: ModelBenchmark | null = null;
    if (targets) {
      const prices = await this.repo.priceHistories(firmId, targets.lines.map((l) => l.productId), '9999-12-31');
      result = { name: targets.name, lines: targets.lines.map((l) => ({ weight: l.weight, prices: prices.get(l.productId) ?? [] })) };
    }
    cache.set(modelId, result);
    if (this.benchmarks.size >= MAX_KEPT_BENCHMARKS) this.benchmarks.clear();
    this.benchmarks.set(key, { value: result, until: Date.now() + BENCHMARK_TTL_MS });
    return result;
  }
}

interface ModelBenchmark {
  name: string;
  lines: BenchmarkLine[];
}

/** A blend's weight as the benchmark's name shows it: a percentage to one decimal place. */
function formatWeight(weight: number): string {
  return `${(Math.round(weight * 1000) / 10).toString()} %`;
}
