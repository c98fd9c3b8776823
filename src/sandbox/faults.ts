/** The faults in force; changed at run time by `setFaults`. */
export interface ActiveFaults {
  latencyMs: number;
  failRate: number;
  dropResponseRate: number;
}

/**
 * True with probability `rate`. A rate of 0 never consults `random`, so a deterministic sequence
 * given by a test is spent only on the faults that are switched on.
 */
export function strikes(rate: number, random: () => number): boolean {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return random() < rate;
}
