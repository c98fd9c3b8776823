/** BENCH_QUICK=1 scales every size down about 10× for trying the bench; the figures then are rough. */
export const QUICK = process.env.BENCH_QUICK === '1';

export function scaled(full: number, quick = Math.round(full / 10)): number {
  return QUICK ? quick : full;
}
