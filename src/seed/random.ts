import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Seeded randomness for the generator; never Math.random, so one seed always yields one book. */
export class Random {
  private readonly rng;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** Float in [0, 1). */
  float(): number {
    return uniformFloat64(this.rng);
  }

  between(min: number, max: number): number {
    return min + (max - min) * this.float();
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Index chosen with the given relative weights. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.float() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** k distinct indices out of n, in ascending order. */
  sample(n: number, k: number): number[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(k, n)) chosen.add(this.int(0, n - 1));
    return [...chosen].sort((a, b) => a - b);
  }
}
