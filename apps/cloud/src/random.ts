import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** The seeded random source: the same seed gives the same sequence on every machine. */
export class SeededRandom {
  private readonly rng: RandomGenerator;
  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed);
  }
  int(from: number, to: number): number {
    return uniformInt(this.rng, from, to);
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }
  chance(percent: number): boolean {
    return this.int(0, 99) < percent;
  }
  hex(chars: number): string {
    let s = '';
    while (s.length < chars) s += this.int(0, 15).toString(16);
    return s;
  }
}
