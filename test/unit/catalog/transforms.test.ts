import { describe, expect, it } from 'vitest';
import { applyTextTransforms, specFromTransforms, TRANSFORM_NAMES } from '../../../src/catalog/transforms.js';

describe('text transforms', () => {
  it.each([
    ['trim', '  a b  ', 'a b'],
    ['lowercase', 'ÄBC', 'äbc'],
    ['uppercase', 'äbc', 'ÄBC'],
    ['collapse-spaces', ' a \n\t b ', 'a b'],
    ['strip-html', '<p>New <b>design</b>.</p>', 'New design .'],
    ['strip-currency', '€ 12,50', '12,50'],
    ['strip-currency', '12.50 EUR', '12.50'],
    ['strip-currency', '$269.99 ', '269.99'],
    ['zero-as-blank', '0', ''],
    ['zero-as-blank', '0,00', ''],
    ['zero-as-blank', '0.00', ''],
    ['zero-as-blank', '9,98', '9,98'],
  ] as const)('%s turns %j into %j', (name, input, expected) => {
    expect(applyTextTransforms(input, [name])).toBe(expected);
  });

  it('applies several in order', () => {
    expect(applyTextTransforms(' <b>USB</b> ', ['strip-html', 'lowercase'])).toBe('usb');
  });
});

describe('kind transforms', () => {
  it.each([
    ['decimal', { kind: 'decimal' }],
    ['decimal-dot', { kind: 'decimal', decimal: 'dot' }],
    ['decimal-comma', { kind: 'decimal', decimal: 'comma' }],
    ['integer', { kind: 'integer' }],
    ['boolean', { kind: 'boolean' }],
    ['list', { kind: 'list' }],
    ['string', { kind: 'string' }],
  ] as const)('%s sets the field spec %j', (name, expected) => {
    expect(specFromTransforms({ kind: 'string' }, [name])).toEqual(expected);
  });

  it('leaves text unchanged and every name is known', () => {
    expect(applyTextTransforms('12,5', ['decimal-comma'])).toBe('12,5');
    expect(TRANSFORM_NAMES).toContain('strip-currency');
  });
});
