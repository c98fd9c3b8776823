/**
 * `catalog-sync run my file.csv`: the shell split the path, and commander says only "too many
 * arguments". When some of the words, joined with spaces, name a file that is there, the hint says
 * to quote it. `exists` is a seam (tests); the words are the command line after `catalog-sync`.
 */
export function spacedPathHint(words: readonly string[], exists: (path: string) => boolean): string | null {
  // Runs of words that are no option: a path's pieces are next to each other.
  for (let start = 0; start < words.length; start++) {
    for (let end = words.length; end - start >= 2; end--) {
      const piece = words.slice(start, end);
      if (piece.some((word) => word.startsWith('-'))) continue;
      const path = piece.join(' ');
      if (exists(path)) return `a path with spaces must be quoted: "${path}"`;
    }
  }
  return null;
}
