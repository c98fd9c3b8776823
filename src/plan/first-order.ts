import type { PlannedWrite } from './plan-store.js';

/** `--first`'s default: a seller's prices and quantities are right first (issue 14). */
export const DEFAULT_FIRST: readonly string[] = ['price', 'quantity'];

/**
 * The pass in which a run over the day's quota sends a planned write: 0, an update of a `--first`
 * field; 1, any other update; 2, a create (a new product can wait a day more than a wrong price).
 */
export type WritePass = 0 | 1 | 2;
export const WRITE_PASSES: readonly WritePass[] = [0, 1, 2];

export function writePass(
  write: Pick<PlannedWrite, 'action' | 'fields'>,
  first: readonly string[],
): WritePass {
  if (write.action === 'create') return 2;
  return Object.keys(write.fields).some((field) => first.includes(field)) ? 0 : 1;
}

/** The writes in the order they are sent: pass by pass, each pass in row order (a stable sort). */
export function inPasses<T extends Pick<PlannedWrite, 'action' | 'fields'>>(
  writes: readonly T[],
  first: readonly string[],
): T[] {
  return WRITE_PASSES.flatMap((pass) => writes.filter((write) => writePass(write, first) === pass));
}
