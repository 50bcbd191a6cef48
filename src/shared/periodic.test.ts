import { describe, expect, it, vi } from 'vitest';
import { PeriodicJob } from './periodic.js';

describe('PeriodicJob', () => {
  it('never overlaps runs, reports a failed run and runs again on the next tick', async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let most = 0;
      let runs = 0;
      const errors: unknown[] = [];
      let release!: () => void;
      const job = new PeriodicJob(
        async () => {
          runs++;
          running++;
          most = Math.max(most, running);
          await new Promise<void>((resolve) => (release = resolve));
          running--;
          if (runs === 1) throw new Error('first run fails');
        },
        { intervalMs: 100, runAtStart: true, onError: (error) => errors.push(error) },
      );
      job.start();
      expect(runs).toBe(1);
      await vi.advanceTimersByTimeAsync(350); // three ticks while the first run is still going
      expect(runs).toBe(1);
      release();
      await vi.advanceTimersByTimeAsync(100);
      expect(errors).toHaveLength(1);
      expect(runs).toBe(2);
      release();
      await job.stop();
      expect(most).toBe(1);
      expect(job.started).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
