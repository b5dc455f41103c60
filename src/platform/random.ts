// Small seeded random numbers (mulberry32): fast, 32-bit state, good enough for simulation, and
// reproducible, so that the simulators give the same output, and tests see it, for the same seed.

/** One mulberry32 step: returns the next state and a value in [0, 1). */
function mulberry32(state: number): [next: number, value: number] {
  const next = (state + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [next, ((t ^ (t >>> 14)) >>> 0) / 4294967296];
}

/** A value in [0, 1) that depends only on the two integers (stateless noise, e.g. per report). */
export function hashUnit(a: number, b: number): number {
  const [, value] = mulberry32(Math.imul(a | 0, 0x9e3779b1) ^ (b | 0));
  return value;
}

export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed | 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    const [state, value] = mulberry32(this.#state);
    this.#state = state;
    return value;
  }

  /** A generator of its own, seeded from this one, so a consumer's draws never shift this one's. */
  fork(): Prng {
    return new Prng(Math.floor(this.next() * 4294967296));
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer uniform in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight; `weightOf` must give non-negative numbers with a positive sum. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    let total = 0;
    for (const item of items) total += weightOf(item);
    let target = this.next() * total;
    for (const item of items) {
      target -= weightOf(item);
      if (target < 0) return item;
    }
    return items[items.length - 1]!;
  }
}
