import { SYSTEM_REASONS } from '../trade-blocks/records.js';

/**
 * The four system trade-block reasons of spec 2.5, written with the firm. Their global ids are
 * fixed per position so that a seeded book is the same for the same seed.
 */
export const systemReasonRows = () =>
  SYSTEM_REASONS.map((name, i) => ({
    global_id: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    name,
    is_system_maintained: 1 as const,
    allow_detail_assignment: 1 as const,
  }));
