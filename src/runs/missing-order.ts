/**
 * The order of a report's `missing` lines (README, The report): ascending `product_id`, as
 * numbers where the ids are integers, so the same run gives the same report byte for byte.
 *
 * Redis keeps the lines in a sorted set whose scores are all 0, which orders members by their bytes:
 * each member starts with a sort key that makes byte order the wanted order. An integer id is
 * written as its digit count (4 digits) and then its digits, so `9` < `10` < `100` however long the
 * ids; any other id follows every integer one, in byte order. Scores are doubles and could not hold
 * a 20-digit id exactly; the members can.
 */
const INTEGER = /^(0|[1-9][0-9]{0,9998})$/;
const SEPARATOR = '\u0000';

export function missingSortKey(productId: string): string {
  return INTEGER.test(productId)
    ? `0${String(productId.length).padStart(4, '0')}${productId}`
    : `1${productId}`;
}

/** The sorted-set member that carries one line: its sort key, a NUL, then the stored line. */
export function missingMember(productId: string, line: string): string {
  return `${missingSortKey(productId)}${SEPARATOR}${line}`;
}

/** The stored line of a member. Lines are JSON, which escapes every NUL, so the last NUL ends the key. */
export function lineOfMember(member: string): string {
  return member.slice(member.lastIndexOf(SEPARATOR) + 1);
}
