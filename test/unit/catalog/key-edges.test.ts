import { describe, expect, it } from 'vitest';
import { trimCell } from '../../../src/catalog/cell-text.js';
import { listedValue } from '../../../src/sync/listed-keys.js';

// A cell is read without the white space at its edges, and so is a listed key; a byte order mark
// is no white space there, though String.prototype.trim strips it.

describe("a cell's text, as every preset reads it", () => {
  it('loses the white space at its edges: spaces, tabs, no-break spaces', () => {
    expect(trimCell('  SP \t')).toBe('SP');
    expect(trimCell('NB\u00a0')).toBe('NB');
    expect(trimCell('\u2003EM')).toBe('EM');
    expect(trimCell('SKU-1')).toBe('SKU-1');
  });

  it('keeps a byte order mark (U+FEFF) at its edge, which String.prototype.trim would strip', () => {
    expect(trimCell('\ufeffZ4')).toBe('\ufeffZ4');
    expect(trimCell('Z5\ufeff')).toBe('Z5\ufeff');
    expect(trimCell(' \ufeffZ4 ')).toBe('\ufeffZ4');
    // A cell of nothing else stays blank, as a lone zero-width space is no key either.
    expect(trimCell(' \ufeff ')).toBe('');
  });
});

describe('a listed key as rows are matched to it', () => {
  it('is read as a cell is: spaces off, a byte order mark kept (a key the tool cannot trust)', () => {
    expect(listedValue('SP ')).toBe('SP');
    expect(listedValue('\ufeffZ4')).toBe('\ufeffZ4');
    expect(listedValue(' \u00a0')).toBeNull();
    expect(listedValue(12)).toBe('12');
  });
});
