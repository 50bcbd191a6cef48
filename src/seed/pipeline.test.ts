import { describe, expect, it } from 'vitest';
import { ChunkPipeline } from './pipeline.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('ChunkPipeline', () => {
  it('starts writes in order and never runs more than its width at once', async () => {
    const pipeline = new ChunkPipeline(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    for (let i = 0; i < 7; i++) {
      await pipeline.add(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await tick();
        running--;
      });
    }
    await pipeline.drain();
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(2);
    expect(running).toBe(0);
  });

  it('throws the first failure only once the writes already started have settled, and starts no more', async () => {
    const pipeline = new ChunkPipeline(2);
    const settled: string[] = [];
    await pipeline.add(async () => {
      await tick();
      throw new Error('chunk 0 failed');
    });
    await pipeline.add(async () => {
      await tick();
      await tick();
      settled.push('chunk 1');
    });
    await expect(pipeline.add(async () => void settled.push('chunk 2'))).rejects.toThrow('chunk 0 failed');
    expect(settled).toEqual(['chunk 1']);
    await expect(pipeline.drain()).rejects.toThrow('chunk 0 failed');
  });

  it('refuses a width below one', () => {
    expect(() => new ChunkPipeline(0)).toThrow(/width/);
  });
});
