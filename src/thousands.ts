/**
 * An integer with commas between groups of three digits (`1,234,567`), as `toLocaleString('en-US')`
 * writes it, without that call's first-use cost: loading the locale data took ~19 ms of every
 * `run`'s and `import`'s start (issue 12).
 */
export function thousands(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
