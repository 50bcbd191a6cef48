import type { Clock } from '../shared/clock.js';
import { DomainError, notFound, validationFailed } from '../shared/errors.js';
import { centsToDollars, microsToPrice, microsToShares } from '../shared/money.js';
import { lotMethodOf, REBALANCE_DEFAULTS } from '../engine/index.js';
import { mapPages, pagesById } from '../shared/pages.js';
import { withTotal } from '../db/paging.js';
import type { Principal } from '../auth/service.js';
import type { JobQueue } from './queue.js';
import type { BatchRepository } from './batch-repository.js';
import type { TradeInstanceRepository } from './instance-repository.js';
import type { SelectionRepository } from './selection-repository.js';
import { resolveRequest } from './request.js';
import type { MessageDetail, RebalanceRequest } from './schemas.js';
import { decodeTradeLots } from './trade-lots-codec.js';

const WAIT_POLL_MS = 20;

const SEVERITY_CODE: Record<string, number> = { Error: 0, Warning: 1, Info: 3 };

/** Positions an account of a typical advisory book holds (20–30); see accountsPerChunk. */
const TYPICAL_POSITIONS = 30;
const SIZE_SAMPLE = 200;

/**
 * Splits items into chunks, never splitting a group (a sleeved registration's accounts). A chunk
 * is large enough to amortise a snapshot read and small enough for workers to share a batch.
 */
function chunk(groups: number[][], size: number): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  for (const group of groups) {
    if (current.length > 0 && current.length + group.length > size) {
      chunks.push(current);
      current = [];
    }
    current.push(...group);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Section 4.4: rebalance batches, their status and messages; trade instances and their trades. */
export class TradingService {
  constructor(
    private readonly repository: BatchRepository,
    private readonly selection: SelectionRepository,
    private readonly tradeInstances: TradeInstanceRepository,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly chunkSize: number,
    /** `wait=true` answers after this long at the latest, with the batch still running (REBALANCE_WAIT_SECONDS). */
    private readonly waitLimitMs: number,
  ) {}

  async definition(firmId: number) {
    const firm = await this.selection.firm(firmId);
    return {
      ...REBALANCE_DEFAULTS,
      routine: 'Rebalance' as const,
      reason: 'NeedReview' as const,
      entity: 'Account' as const,
      keys: [] as number[],
      amounts: [] as number[],
      assetValues: firm.default_asset_values,
      notes: null,
      nsccTransactionType: null,
    };
  }

  /** Validates, expands entity and keys into accounts, records the batch and queues its chunks. */
  async generate(principal: Principal, request: RebalanceRequest, wait: boolean): Promise<number> {
    const resolved = resolveRequest(request);
    if ('problems' in resolved) throw validationFailed(resolved.problems);
    const { stored } = resolved;
    const { level } = stored;

    const { firmId } = principal;
    let accounts: number[];
    if (request.entity === 'Account') {
      accounts = request.keys;
    } else {
      const table = request.entity === 'TradeGroup' ? 'trade_groups' : 'model_aggs';
      const known = await this.selection.existing(table, firmId, request.keys);
      const unknown = request.keys.flatMap((key, i) => (known.has(key) ? [] : [{ field: `keys[${i}]`, message: `${request.entity} ${key} does not exist` }]));
      if (unknown.length > 0) throw validationFailed(unknown);
      accounts = request.entity === 'TradeGroup' ? await this.selection.tradeGroupAccounts(firmId, request.keys) : await this.selection.modelAggAccounts(firmId, request.keys);
      accounts = [...new Set(accounts)];
    }

    let groups: number[][];
    if (level === 'Registration') {
      // Every sleeve of a named account's registration takes part; unknown keys stay single items.
      const members = accounts.length > 0 ? await this.selection.registrationMembers(firmId, accounts) : [];
      const byRegistration = new Map<number, number[]>();
      for (const m of members) byRegistration.set(m.registration_id, [...(byRegistration.get(m.registration_id) ?? []), m.id]);
      const found = new Set(members.map((m) => m.id));
      groups = [...byRegistration.values(), ...accounts.filter((a) => !found.has(a)).map((a) => [a])];
    } else if (stored.options.taxOptions) {
      // A household is planned together (one budget, one set of wash-sale rules): its accounts
      // in the batch share a chunk, whatever worker runs it.
      groups = await this.households(firmId, accounts);
    } else {
      groups = accounts.map((a) => [a]);
    }

    const chunks = chunk(groups, await this.accountsPerChunk(firmId, accounts));
    const { batchId, chunkIds } = await this.repository.createBatch({
      firmId,
      userId: principal.userId,
      userName: principal.userName,
      routine: 'Rebalance',
      notes: request.notes ?? null,
      request: JSON.stringify(stored),
      lotSelection: stored.options.taxOptions ? lotMethodOf(stored.options.taxOptions) : null,
      chunks,
      totalItems: chunks.reduce((n, c) => n + c.length, 0),
      now: this.clock.now().toISOString(),
    });
    await this.queue.enqueue(chunkIds);
    if (wait) await this.waitFor(batchId);
    return batchId;
  }

  /**
   * REBALANCE_CHUNK_SIZE accounts of a typical book (up to TYPICAL_POSITIONS positions each) make a
   * chunk; accounts holding more make proportionally smaller chunks, so a chunk's snapshots (held
   * in memory at once) and its reads stay about the same on a direct-indexing book of hundreds of
   * positions an account. Sized from the first SIZE_SAMPLE accounts of the batch (one indexed count).
   */
  private async accountsPerChunk(firmId: number, accounts: number[]): Promise<number> {
    const sample = accounts.slice(0, SIZE_SAMPLE);
    const perAccount = sample.length === 0 ? 0 : (await this.selection.positionCount(firmId, sample)) / sample.length;
    if (perAccount <= TYPICAL_POSITIONS) return this.chunkSize;
    return Math.max(1, Math.floor((this.chunkSize * TYPICAL_POSITIONS) / perAccount));
  }

  private async households(firmId: number, accounts: number[]): Promise<number[][]> {
    const rows = accounts.length > 0 ? await this.selection.householdsOf(firmId, accounts) : [];
    const byHousehold = new Map<number, number[]>();
    for (const r of rows) byHousehold.set(r.client_id, [...(byHousehold.get(r.client_id) ?? []), r.id]);
    const found = new Set(rows.map((r) => r.id));
    return [...byHousehold.values(), ...accounts.filter((a) => !found.has(a)).map((a) => [a])];
  }

  /** A page of the per-household tax summary of a tax-aware batch (empty for any other batch). */
  async taxSummary(firmId: number, batchId: number, page: { top: number; skip: number; householdId?: number; count: boolean }) {
    await this.batch(firmId, batchId);
    const { rows, total } = await this.repository.taxSummaryPage(firmId, batchId, page);
    const items = rows.map((r) => ({
      householdId: r.client_id,
      shortTermGain: centsToDollars(r.short_term_gain_cents),
      longTermGain: centsToDollars(r.long_term_gain_cents),
      harvestedLosses: centsToDollars(r.harvested_loss_cents),
      washSaleMoves: r.wash_sale_moves,
      budgetCuts: r.budget_cuts,
    }));
    return { items, total };
  }

  private async waitFor(batchId: number) {
    const deadline = Date.now() + this.waitLimitMs;
    while (Date.now() < deadline) {
      const batch = await this.repository.batchById(batchId);
      if (!batch || batch.status !== 'Running') return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
    }
  }

  private async batch(firmId: number, batchId: number) {
    const batch = await this.repository.batch(firmId, batchId);
    if (!batch) throw notFound('batch processing record', batchId);
    return batch;
  }

  async status(firmId: number, batchId: number) {
    const batch = await this.batch(firmId, batchId);
    const firm = await this.selection.firm(firmId);
    return {
      id: batch.id,
      alClientName: firm.name,
      status: batch.status,
      message: batch.message,
      createdBy: batch.created_by,
      createdDate: batch.created_at,
      parentId: batch.status === 'Failed' ? batch.trade_instance_id : null,
      tradeInstanceId: batch.trade_instance_id,
      isDone: batch.status !== 'Running',
      totalItems: batch.total_items,
      itemsCompleted: batch.items_completed,
      errorCount: batch.error_count,
      warningCount: batch.warning_count,
      details: null,
    };
  }

  /**
   * The batch's message, and its details (one per account error or warning, and a tax-aware
   * batch's explanations) a page at a time: a batch of 100,000 accounts may have as many.
   */
  /** The batch's message with a page of its details (`top` from `skip`), and how many details it has. */
  async message(firmId: number, batchId: number, page: { top: number; skip: number }) {
    const batch = await this.batch(firmId, batchId);
    const severity = batch.status === 'Running' ? 'Running' : batch.status === 'Failed' ? 'Failed' : 'Complete';
    const summary =
      batch.status === 'Running'
        ? `Trade generation is running: ${batch.items_completed} of ${batch.total_items} accounts done.`
        : `${batch.items_completed} accounts processed, ${batch.error_count} with errors, ${batch.warning_count} warnings.`;
    const head = {
      entityId: batch.trade_instance_id,
      entityEnum: 'TradeInstance',
      severity,
      severityCode: { Running: 1, Failed: 2, Complete: 4 }[severity],
      receivedDate: batch.completed_at ?? batch.created_at,
      subject: batch.status === 'Failed' ? 'Trade generation failed' : batch.status === 'Complete' ? 'Trade generation complete' : 'Trade generation running',
      message: batch.message ? `${batch.message} ${summary}` : summary,
      details: [] as MessageDetail[],
    };
    const total = await this.repository.messageCount(firmId, batchId);
    return { head, details: this.messageDetails(firmId, batchId, page), total };
  }

  private messageDetails(firmId: number, batchId: number, page: { top: number; skip: number }): AsyncGenerator<MessageDetail[]> {
    const rows = pagesById((afterId, limit, skip) => this.repository.messages(firmId, batchId, afterId, limit, skip), page);
    // Info lines are stored only by tax-aware batches, whose explanations they are.
    return mapPages(rows, (page) => page.map((m) => ({ severityCode: SEVERITY_CODE[m.severity] ?? 3, severity: m.severity, message: m.message, entityEnum: 'Account', entityId: m.account_id })));
  }

  async instances(firmId: number, page: { top: number; skip: number; count: boolean }) {
    const rows = await this.tradeInstances.instances(firmId, page.top, page.skip);
    const { total } = await withTotal(rows, page, () => this.tradeInstances.instanceCount(firmId));
    return { items: rows.map(instanceRecord), total };
  }

  async instance(firmId: number, id: number) {
    const row = await this.tradeInstances.instance(firmId, id);
    if (!row) throw notFound('trade instance', id);
    return instanceRecord(row);
  }

  /** A page of the instance's trades in id order; `count` also answers how many there are in all. */
  async trades(firmId: number, id: number, page: { top: number; skip: number; accountId?: number; count: boolean }) {
    const instance = await this.instance(firmId, id);
    // The instance keeps its own count, so the whole instance's total is always sent; only one
    // account's trades need counting, on request.
    const whole = page.accountId === undefined;
    const { rows, total } = await this.tradeInstances.tradesPage(firmId, id, { ...page, count: page.count && !whole });
    return { items: rows.map(tradeRecord), total: whole ? instance.tradeCount : total };
  }

  /** Withdraws what a rebalance produced; its open orders stop counting in the next rebalance. */
  async cancel(principal: Principal, id: number) {
    const instance = await this.instance(principal.firmId, id);
    if (instance.batchProcessingId !== null) {
      const batch = await this.repository.batch(principal.firmId, instance.batchProcessingId);
      if (batch?.status === 'Running') throw new DomainError('invalid_state', `trade instance ${id} is still being generated; cancel it when its batch is done`);
    }
    if (instance.status !== 'Cancelled') await this.tradeInstances.cancel(principal.firmId, id, principal.userName, this.clock.now().toISOString());
    return this.instance(principal.firmId, id);
  }
}

type TradeRow = Awaited<ReturnType<TradeInstanceRepository['tradesPage']>>['rows'][number];

/** A stored trade as the API shows it. */
function tradeRecord(t: TradeRow) {
  return {
    id: t.id,
    tradeInstanceId: t.trade_instance_id,
    accountId: t.account_id,
    accountNumber: t.account_number,
    productId: t.product_id,
    ticker: t.ticker,
    side: t.side === 'Buy' ? '1' : '2',
    action: t.side === 'Buy' ? 'BUY' : 'SELL',
    tradeType: t.trade_type,
    shares: microsToShares(t.shares_micros),
    amount: centsToDollars(t.amount_cents),
    price: microsToPrice(t.price_micros),
    reason: t.reason,
    explanation: t.reason,
    status: t.status,
    createdDate: t.created_at,
    ...(t.lots !== null ? { lots: decodeTradeLots(t.lots) } : {}),
    ...(t.short_term_gain_cents !== null ? { estimatedShortTermGain: centsToDollars(t.short_term_gain_cents) } : {}),
    ...(t.long_term_gain_cents !== null ? { estimatedLongTermGain: centsToDollars(t.long_term_gain_cents) } : {}),
  };
}

function instanceRecord(row: {
  id: number;
  routine: string;
  notes: string | null;
  status: string;
  created_at: string;
  created_by: string;
  cancelled_at: string | null;
  cancelled_by: string | null;
  batch_id: number | null;
  trade_count: number | null;
}) {
  return {
    id: row.id,
    routine: row.routine,
    notes: row.notes,
    status: row.status,
    batchProcessingId: row.batch_id,
    tradeCount: Number(row.trade_count ?? 0),
    createdDate: row.created_at,
    createdBy: row.created_by,
    cancelledDate: row.cancelled_at,
    cancelledBy: row.cancelled_by,
  };
}
