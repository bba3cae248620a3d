// mulberry32: a tiny seeded PRNG, so runs with --seed make the same fault and id decisions.
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for runs without --seed. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 0x100000000);
}
