// The thread SQLite's queue plans its chunks in (thread-planner.ts starts it): it takes a chunk's
// reads as a message, builds the accounts' snapshots, runs the engine and answers with the rows
// to write. A batch's plan and firm context come with its first chunk only and are kept here
// until the batch ends: the request holds every key of the batch.

import { parentPort } from 'node:worker_threads';
import { type ChunkRows, planChunk } from './chunk-plan.js';
import type { ChunkReads, FirmContext } from './chunk-reads.js';
import { type BatchPlan, planOf, type StoredRequest } from './request.js';

/** A message to the thread. */
export type ToThread =
  | { kind: 'plan'; id: number; batchId: number; batch?: { request: StoredRequest; context: FirmContext }; keys: number[]; reads: ChunkReads }
  | { kind: 'forget'; batchId: number };

/** The thread's answer to the plan of message `id`. */
export type FromThread = { id: number; rows: ChunkRows } | { id: number; error: { message: string; stack?: string } };

const batches = new Map<number, { plan: BatchPlan; context: FirmContext }>();

function answer(message: ToThread): FromThread | undefined {
  if (message.kind === 'forget') {
    batches.delete(message.batchId);
    return undefined;
  }
  try {
    if (message.batch) batches.set(message.batchId, { plan: planOf(message.batch.request), context: message.batch.context });
    const batch = batches.get(message.batchId);
    // The planner sends a batch with its first chunk to this thread; a thread started since
    // (after one ended) is sent it again, so a batch missing here is a fault of the planner.
    if (!batch) throw new Error(`batch ${message.batchId} was not sent to the planning thread`);
    return { id: message.id, rows: planChunk(batch.plan, batch.context, message.keys, message.reads) };
  } catch (error) {
    const { message: text, stack } = error instanceof Error ? error : new Error(String(error));
    return { id: message.id, error: { message: text, ...(stack !== undefined ? { stack } : {}) } };
  }
}

parentPort?.on('message', (message: ToThread) => {
  const reply = answer(message);
  if (reply) parentPort?.postMessage(reply);
});
