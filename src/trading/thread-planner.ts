import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChunkRows } from './chunk-plan.js';
import type { FromThread, ToThread } from './plan-thread.js';
import type { ChunkPlanner, ChunkWork } from './runner.js';

/**
 * Plans chunks in a thread of this process (plan-thread.ts), one at a time: SQLite's queue reads
 * the next chunk while the thread plans this one, so a rebalance keeps both cores busy, and the
 * API's requests are not held up by the engine (docs/decisions/rebalance-plan-thread.md). The
 * thread starts with the first chunk and is started again after a fault; a plan it had not
 * answered fails, and the queue runs its chunk again. An idle thread does not keep the process
 * alive.
 */
export class ThreadPlanner implements ChunkPlanner {
  private worker: Worker | undefined;
  /** The batches whose plan and context the current thread holds. */
  private readonly sent = new Set<number>();
  private readonly waiting = new Map<number, { resolve: (rows: ChunkRows) => void; reject: (error: Error) => void }>();
  private nextId = 1;

  plan(work: ChunkWork): Promise<ChunkRows> {
    const worker = this.thread();
    const id = this.nextId++;
    const message: ToThread = {
      kind: 'plan',
      id,
      batchId: work.batchId,
      ...(this.sent.has(work.batchId) ? {} : { batch: { request: work.plan.request, context: work.context } }),
      keys: work.keys,
      reads: work.reads,
    };
    return new Promise<ChunkRows>((resolve, reject) => {
      try {
        worker.postMessage(message);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.sent.add(work.batchId);
      this.waiting.set(id, { resolve, reject });
      worker.ref();
    });
  }

  forget(batchId: number): void {
    if (this.sent.delete(batchId)) this.worker?.postMessage({ kind: 'forget', batchId } satisfies ToThread);
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.lost(worker, new Error('the planning thread was stopped'));
    await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread();
    worker.on('message', (reply: FromThread) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('rows' in reply) waiting.resolve(reply.rows);
      else waiting.reject(Object.assign(new Error(reply.error.message), reply.error.stack !== undefined ? { stack: reply.error.stack } : {}));
    });
    worker.on('error', (error) => this.lost(worker, error));
    worker.on('exit', (code) => this.lost(worker, new Error(`the planning thread exited with code ${code}`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** The thread is gone: what it was planning fails, and the next plan starts a new one. */
  private lost(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.sent.clear();
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.reject(error);
  }
}

/**
 * The thread runs plan-thread in the language this file runs in: compiled, the .js beside it;
 * from source (tsx), the .ts through tsx's loader, registered in the thread first (a thread does
 * not inherit the loader of its process).
 */
function startThread(): Worker {
  const here = fileURLToPath(import.meta.url);
  const target = new URL(`./plan-thread${extname(here)}`, import.meta.url);
  if (extname(here) !== '.ts') return new Worker(target);
  // Resolved here, where the project's packages are; vitest's module runner has no import.meta.resolve, and runs from the project's root.
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : 'tsx/esm/api';
  return new Worker(`import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(target.href)});`, { eval: true });
}
