import { describe, expect, it } from 'vitest';
import { slices } from './id-chunks.js';

describe('slices', () => {
  it('cuts a list into consecutive slices of at most the size, keeping every item once and in order', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    const parts = slices(items, 10);
    expect(parts.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(parts.flat()).toEqual(items);
    expect(slices([], 10)).toEqual([]);
  });
});
