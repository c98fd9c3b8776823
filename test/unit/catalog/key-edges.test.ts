import { describe, expect, it } from 'vitest';
import { trimCell } from '../../../src/catalog/cell-text.js';
import { edgeSpacedKey, listedKeyWords } from '../../../src/catalog/key-forms.js';
import { listedValue } from '../../../src/sync/listed-keys.js';

// A cell is read without the spaces at its edges, and so is a listed key: `SP` in the file is
// the product whose SKU is `SP ` on the marketplace. That is a match, not a change of its SKU.

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

describe('a listed key that differs from the row key only by white space at its edges', () => {
  it('is the row key with spaces around it, nothing else', () => {
    expect(edgeSpacedKey('SP', 'SP ')).toBe(true);
    expect(edgeSpacedKey('NB', 'NB\u00a0')).toBe(true);
    expect(edgeSpacedKey('LS', ' LS')).toBe(true);
    expect(edgeSpacedKey('SP', 'SP')).toBe(false);
    expect(edgeSpacedKey('SP', 'sp ')).toBe(false);
    expect(edgeSpacedKey('S P', 'S  P')).toBe(false);
    expect(edgeSpacedKey('Z4', '\ufeffZ4')).toBe(false);
    expect(edgeSpacedKey('12', 12)).toBe(false);
  });

  it('is shown with its spaces seen and counted, any other than U+0020 written as its escape', () => {
    const words = (key: string) => {
      const { shown, why } = listedKeyWords(key);
      return shown + why;
    };
    expect(words('SP ')).toBe('"SP " (a space at its end)');
    expect(words('  LS')).toBe('"  LS" (2 spaces at its start)');
    expect(words(' X\t')).toBe('" X\\u0009" (spaces at its start and end)');
    expect(words('NB\u00a0')).toBe('"NB\\u00a0" (a space at its end)');
  });
});
