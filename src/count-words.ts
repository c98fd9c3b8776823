/**
 * A count with the words that follow it in the number the count takes: `1 row`, `2 rows`, `0 rows`.
 * The plural defaults to the singular plus `s`; a phrase with a verb gives both forms
 * (`countOf(n, 'row carries', 'rows carry')`). `shown` is the count as printed (e.g. `thousands(n)`).
 */
export function countOf(
  count: number,
  singular: string,
  plural = `${singular}s`,
  shown = String(count),
): string {
  return `${shown} ${count === 1 ? singular : plural}`;
}
