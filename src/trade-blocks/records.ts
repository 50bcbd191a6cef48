import type { DetailView, ReasonRow } from './repository.js';
import { EntityEnum, type ReasonRecord, type TradeBlockDetail } from './schemas.js';

/** System reasons, the outbox topic and event of trade block sync, and rows as the API's records. */

/** Spec 2.5: the reasons every firm has. */
export const SystemReason = { Manual: 'Manual', OCI: 'OCI', TomOnly: 'TOM Only', FixedIncome: 'Fixed Income' } as const;
export const SYSTEM_REASONS: string[] = Object.values(SystemReason);

/** The outbox topic of trade block sync events (spec 6.1). */
export const TRADE_BLOCK_SYNC_TOPIC = 'tradeBlock.detail.sync';

/**
 * A sync event carries the detail's whole state at `version`; the receiver keeps the newest
 * version per globalId, so redelivery and reordering are harmless.
 */
export interface TradeBlockSyncEvent {
  globalId: string;
  version: number;
  entityEnum: number;
  entityId: number;
  reasonId: number;
  reasonName: string;
  description: string;
  startDate: string;
  endDate: string | null;
  isDeleted: boolean;
  createdBy: string;
  createdDate: string;
  editedBy: string;
  editedDate: string;
}

export interface ViewContext {
  firmId: number;
  /** The start/end date firm option: only then can a block be disabled by its dates. */
  dates: boolean;
  today: string;
}

/** Active from startDate through endDate inclusive. */
export function isOutsideRange(startDate: string, endDate: string | null, today: string): boolean {
  return today < startDate || (endDate !== null && today > endDate);
}

export function reasonDto(row: Pick<ReasonRow, 'id' | 'name' | 'global_id' | 'is_system_maintained' | 'allow_detail_assignment'>, firmId: number): ReasonRecord {
  return {
    id: row.id,
    name: row.name,
    globalId: row.global_id,
    isSystemMaintained: row.is_system_maintained === 1,
    allowDetailAssignment: row.allow_detail_assignment === 1,
    // Both applications run in this process over one database, so the firm id is the same.
    rebalancerFirmId: firmId,
  };
}

export function detailDto(view: DetailView, context: ViewContext): TradeBlockDetail {
  return {
    id: view.id,
    entityEnum: view.entity_enum,
    entityId: view.entity_id,
    tradeBlockReasonId: view.reason_id,
    description: view.description,
    startDate: view.start_date,
    endDate: view.end_date,
    isDeleted: view.is_deleted === 1,
    isDisabled: context.dates && isOutsideRange(view.start_date, view.end_date, context.today),
    globalId: view.global_id,
    entityName: (view.entity_enum === EntityEnum.Account ? view.account_name : view.registration_name) ?? null,
    tradeBlockReason: reasonDto(
      {
        id: view.reason_id,
        name: view.reason_name,
        global_id: view.reason_global_id,
        is_system_maintained: view.reason_system,
        allow_detail_assignment: view.reason_assignable,
      },
      context.firmId,
    ),
    errorMessage: null,
    createdBy: view.created_by,
    createdDate: view.created_at,
    editedBy: view.edited_by,
    editedDate: view.edited_at,
  };
}

export function syncEvent(view: Omit<DetailView, 'reason_global_id' | 'reason_system' | 'reason_assignable' | 'account_name' | 'registration_name'>): TradeBlockSyncEvent {
  return {
    globalId: view.global_id,
    version: view.version,
    entityEnum: view.entity_enum,
    entityId: view.entity_id,
    reasonId: view.reason_id,
    reasonName: view.reason_name,
    description: view.description,
    startDate: view.start_date,
    endDate: view.end_date,
    isDeleted: view.is_deleted === 1,
    createdBy: view.created_by,
    createdDate: view.created_at,
    editedBy: view.edited_by,
    editedDate: view.edited_at,
  };
}

/** Section 6.1: no event for the platform-only reason. */
export const publishes = (reason: { name: string; is_system_maintained: number }) =>
  !(reason.is_system_maintained === 1 && reason.name === SystemReason.TomOnly);
