import { describe, expect, it } from 'vitest';
import { systemClock } from '../shared/clock.js';
import type { BatchRepository } from './batch-repository.js';
import type { ChunkRows } from './chunk-plan.js';
import { InProcessQueue } from './queue.js';
import type { BatchRunner, ChunkPlanner, ChunkWork, PreparedChunk } from './runner.js';

const NO_ROWS: ChunkRows = { trades: [], messages: [], transfers: [], taxSummaries: [] };

/**
 * A runner whose steps only record what happened, in order, and a planner that answers when told
 * to: enough to see the order SQLite's queue runs a chunk's steps in.
 */
function fakes(options: { failPlanOf?: number } = {}) {
  const steps: string[] = [];
  const answers: (() => void)[] = [];
  const planner: ChunkPlanner = {
    plan: (work: ChunkWork) =>
      new Promise<ChunkRows>((resolve, reject) => {
        steps.push(`plan ${work.batchId}`);
        answers.push(() => (work.batchId === options.failPlanOf ? reject(new Error('the thread failed')) : resolve(NO_ROWS)));
      }),
    forget: () => undefined,
    close: async () => void steps.push('close'),
  };
  const runner = {
    planner,
    async prepare(chunkId: number): Promise<PreparedChunk> {
      steps.push(`read ${chunkId}`);
      // batchId carries the chunk's id, so the planner's steps name the chunk.
      return { chunk: { id: chunkId, firmId: 1, batchId: chunkId, instanceId: 1 }, batchId: chunkId } as PreparedChunk;
    },
    async complete(prepared: PreparedChunk): Promise<void> {
      steps.push(`write ${prepared.chunk.id}`);
    },
  };
  const attempts = new Map<number, number>();
  const repository = {
    chunk: async (id: number) => ({ id, batch_id: 1, attempts: (attempts.set(id, (attempts.get(id) ?? 0) + 1), attempts.get(id)!) }),
    failBatch: async () => void steps.push('batch failed'),
    pendingChunks: async () => [],
  };
  const queue = new InProcessQueue(runner as unknown as BatchRunner, repository as unknown as BatchRepository, systemClock);
  queue.log = { error: () => undefined } as unknown as InProcessQueue['log'];
  /** Answers the planner's oldest question once it is asked. */
  const answer = async () => {
    while (answers.length === 0) await new Promise((r) => setImmediate(r));
    answers.shift()!();
  };
  return { steps, queue, answer };
}

describe("SQLite's queue with a planning thread", () => {
  it('reads the next chunk and hands it to the planner before it writes the one planned', async () => {
    const { steps, queue, answer } = fakes();
    await queue.enqueue([1, 2, 3]);
    for (let i = 0; i < 3; i++) await answer();
    await queue.idle();
    // A chunk's read begins as the one before it is begun (SQLite's one connection takes the reads
    // in turn); each chunk is written after the next one is with the planner.
    expect(steps).toEqual(['read 1', 'read 2', 'plan 1', 'plan 2', 'write 1', 'read 3', 'plan 3', 'write 2', 'write 3']);
  });

  it('runs a chunk again when its plan fails, and the chunks after it meanwhile', async () => {
    const { steps, queue, answer } = fakes({ failPlanOf: 1 });
    await queue.enqueue([1, 2]);
    await answer(); // chunk 1 fails in the thread
    await answer(); // chunk 2
    await answer(); // chunk 1 again: fails again
    await answer(); // and a third time
    await queue.idle();
    expect(steps.filter((s) => s.startsWith('write'))).toEqual(['write 2']);
    expect(steps.filter((s) => s === 'plan 1')).toHaveLength(3);
    expect(steps.at(-1)).toBe('batch failed');
  });

  it('stopped with a chunk begun, writes the chunk in hand, keeps the begun one for the next start, and closes the planner', async () => {
    const { steps, queue, answer } = fakes();
    await queue.enqueue([1, 2, 3]);
    while (!steps.includes('plan 2')) await new Promise((r) => setImmediate(r));
    const stopping = queue.stop();
    await answer(); // chunk 1 planned: written
    await answer(); // chunk 2, begun before the stop: planned, not written
    await stopping;
    expect(steps).toEqual(['read 1', 'read 2', 'plan 1', 'plan 2', 'write 1', 'close']);

    await queue.start();
    await queue.enqueue([]);
    const resumed = (async () => {
      for (let i = 0; i < 2; i++) await answer();
    })();
    await queue.idle();
    await resumed;
    expect(steps.slice(6)).toEqual(['read 2', 'read 3', 'plan 2', 'plan 3', 'write 2', 'write 3']);
  });
});
