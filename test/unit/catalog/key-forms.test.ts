import { describe, expect, it } from 'vitest';
import { comparableKey, otherForms } from '../../../src/catalog/key-forms.js';

const nfc = 'CRÈME-1'.normalize('NFC');
const nfd = 'CRÈME-1'.normalize('NFD');

describe('the Unicode forms of a match key', () => {
  it('has none besides itself for plain ASCII, or for text that decomposes to nothing else', () => {
    expect(otherForms('SKU-00001')).toEqual([]);
    expect(otherForms('日本-1')).toEqual([]);
    expect(nfc).not.toBe(nfd);
  });

  it('gives the decomposed form of a composed key and the composed form of a decomposed one', () => {
    expect(otherForms(nfc)).toEqual([nfd]);
    expect(otherForms(nfd)).toEqual([nfc]);
    // Neither form as written: both standard forms are looked up.
    const mixed = `${'É'.normalize('NFD')}${'è'.normalize('NFC')}`;
    expect(otherForms(mixed)).toEqual([mixed.normalize('NFC'), mixed.normalize('NFD')]);
  });

  it('compares keys within a source in the composed form, ASCII as it is', () => {
    expect(comparableKey(nfd)).toBe(nfc);
    expect(comparableKey(nfc)).toBe(nfc);
    const ascii = 'SKU-1';
    expect(comparableKey(ascii)).toBe(ascii);
  });
});
