/**
 * mulberry32: a small seeded PRNG in [0, 1), so the sandbox's injected faults fall on the same
 * requests from one run of a test to the next (up to the order in which concurrent requests arrive).
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
