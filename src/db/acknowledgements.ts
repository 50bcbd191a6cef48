import { randomUUID } from 'node:crypto';

/** How long a process waits for the others to acknowledge a notification before going on. */
export const ACKNOWLEDGEMENT_WAIT_MS = 1000;

/** What a listener sends back on the channel once it has acted on a notification of `nonce`. */
export const acknowledgement = (nonce: string): string => JSON.stringify({ ack: nonce });

/**
 * Waiting until every process listening on a PostgreSQL channel has acted on a notification: the
 * sender names it by a nonce, each listener (the sender included) answers `acknowledgement(nonce)`
 * on the same channel once it has, and the sender waits for as many answers as there are
 * listeners. A listener that does not answer within the wait (it died, or its channel is down and
 * it serves nothing from what it caches anyway) is not waited for longer. Token revocations and
 * the data barrier (src/db/data-changes.ts) use it.
 */
export class Acknowledgements {
  private readonly waiting = new Map<string, Waiting>();
  /** Nonces this process sent or is about to send (a rolled back write's stay: bounded in `announce`). */
  private readonly announced = new Set<string>();
  /** Answers that came before `wait` began, by nonce. */
  private readonly early = new Map<string, number>();

  constructor(private readonly waitMs = ACKNOWLEDGEMENT_WAIT_MS) {}

  /** A new nonce of this process: answers to it that come before `wait` are counted for it. */
  announce(): string {
    if (this.announced.size > 10_000) this.announced.clear();
    if (this.early.size > 10_000) this.early.clear();
    const nonce = randomUUID();
    this.announced.add(nonce);
    return nonce;
  }

  /**
   * Resolves once `listeners` answers to `nonce` came (early ones included): true; or when the
   * wait is over first: false.
   */
  wait(nonce: string, listeners: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const missing = listeners - (this.early.get(nonce) ?? 0);
      this.early.delete(nonce);
      if (missing <= 0) {
        this.announced.delete(nonce);
        return resolve(true);
      }
      const finish = (all: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(nonce);
        this.announced.delete(nonce);
        resolve(all);
      };
      const timer = setTimeout(() => finish(false), this.waitMs);
      this.waiting.set(nonce, { missing, done: () => finish(true) });
    });
  }

  /** Whether a channel payload is an answer (then counted, if it answers this process). */
  heard(payload: string): boolean {
    const nonce = nonceOf(payload, 'ack');
    if (nonce === undefined) return false;
    const wait = this.waiting.get(nonce);
    if (wait) {
      if (--wait.missing <= 0) wait.done();
    } else if (this.announced.has(nonce)) this.early.set(nonce, (this.early.get(nonce) ?? 0) + 1);
    return true;
  }
}

interface Waiting {
  missing: number;
  done: () => void;
}

/** The nonce of a payload `{"<field>":"…"}`, or undefined for any other payload. */
export function nonceOf(payload: string, field: string): string | undefined {
  if (!payload.startsWith(`{"${field}":`)) return undefined;
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    return typeof value[field] === 'string' ? value[field] : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves when `work` settles, or after `ms`, whichever comes first; never rejects. */
export function within(ms: number, work: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    work.then(done, done);
  });
}
