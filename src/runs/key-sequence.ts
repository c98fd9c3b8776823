// The match keys of a packed block of outcomes (packed-outcomes.ts), each kept as it differs from
// the key before (issue 31: Redis kept per product). Exports are mostly sorted by SKU, so a key
// shares most of its start with the one before (front coding), and often is the one before with
// its trailing number one higher (`SKU-000041` after `SKU-000040`): kept as one mark, which deflate
// turns into a few bits. Any key sequence codes and decodes exactly; only its size depends on order.

/** `shared[i]`: how many leading UTF-16 units key i shares with key i−1, or NEXT; `rest[i]`: the others. */
export type KeyCodes = [shared: number[], rest: string[]];

/** The key is the one before with its trailing number one higher, same width at least. */
const NEXT = -1;

const TRAILING_NUMBER = /\d+$/;

/** `key` with its trailing number one higher, zero-padded to the same width (null: no trailing number). */
export function successorKey(key: string): string | null {
  const digits = TRAILING_NUMBER.exec(key)?.[0];
  if (digits === undefined) return null;
  const next = (BigInt(digits) + 1n).toString().padStart(digits.length, '0');
  return key.slice(0, key.length - digits.length) + next;
}

function sharedLength(a: string, b: string): number {
  const most = Math.min(a.length, b.length);
  let i = 0;
  while (i < most && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export function encodeKeySequence(keys: readonly string[]): KeyCodes {
  const shared: number[] = [];
  const rest: string[] = [];
  let previous: string | null = null;
  for (const key of keys) {
    if (previous !== null && successorKey(previous) === key) {
      shared.push(NEXT);
      rest.push('');
    } else {
      const length = previous === null ? 0 : sharedLength(previous, key);
      shared.push(length);
      rest.push(key.slice(length));
    }
    previous = key;
  }
  return [shared, rest];
}

/**
 * The keys back, in order. What Redis holds is not trusted: a shared length out of range takes what
 * there is, and a NEXT after a key without a trailing number adds nothing to it.
 */
export function decodeKeySequence([shared, rest]: KeyCodes): string[] {
  const keys: string[] = [];
  let previous = '';
  for (let i = 0; i < rest.length; i++) {
    const length = shared[i] ?? 0;
    const key =
      length === NEXT
        ? (successorKey(previous) ?? previous) + String(rest[i])
        : previous.slice(0, Math.max(0, length)) + String(rest[i]);
    keys.push(key);
    previous = key;
  }
  return keys;
}
