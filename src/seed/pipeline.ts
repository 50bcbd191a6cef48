/**
 * At most `width` writes in flight, started in order. `add` waits for room; the first failure is
 * thrown once every write already started has settled, so none is left running unobserved (a
 * failed chunk rolls back alone: the firm keeps whole households only).
 */
export class ChunkPipeline {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(private readonly width: number) {
    if (!Number.isInteger(width) || width < 1) throw new Error(`width must be a whole number >= 1, got ${width}`);
  }

  async add(write: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.width) await Promise.race(this.running);
    if (this.failure) await this.drain();
    const started = write().then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
    const tracked = started.finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  /** Waits for every write; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure) throw this.failure.error;
  }
}
