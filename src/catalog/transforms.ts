import { parseDecimal } from './decimal.js';
import type { FieldKind } from './fields.js';

/** How a field's text becomes its value: its kind, and for decimals a forced separator. */
export interface FieldSpec {
  kind: FieldKind;
  decimal?: 'dot' | 'comma';
  /** For lists read from one cell. */
  separator?: string;
}

const TEXT_TRANSFORMS = {
  trim: (text: string) => text.trim(),
  lowercase: (text: string) => text.toLowerCase(),
  uppercase: (text: string) => text.toUpperCase(),
  'collapse-spaces': (text: string) => text.replace(/\s+/g, ' ').trim(),
  'strip-html': (text: string) =>
    text
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  'strip-currency': (text: string) =>
    text
      .replace(/^\s*(?:\p{Sc}|[A-Z]{3}\b)\s*/u, '')
      .replace(/\s*(?:\p{Sc}|\b[A-Z]{3})\s*$/u, '')
      .trim(),
  /** Shopware's `pseudoprice` and similar write 0 for "none": a blank, so nothing is sent. */
  'zero-as-blank': (text: string) => {
    const parsed = parseDecimal(text, 'dot');
    return parsed.ok && parsed.value === '0' ? '' : text;
  },
} satisfies Record<string, (text: string) => string>;

const KIND_TRANSFORMS = {
  string: { kind: 'string' },
  decimal: { kind: 'decimal' },
  'decimal-dot': { kind: 'decimal', decimal: 'dot' },
  'decimal-comma': { kind: 'decimal', decimal: 'comma' },
  integer: { kind: 'integer' },
  boolean: { kind: 'boolean' },
  list: { kind: 'list' },
} satisfies Record<string, FieldSpec>;

export type TextTransform = keyof typeof TEXT_TRANSFORMS;
export type KindTransform = keyof typeof KIND_TRANSFORMS;
export type TransformName = TextTransform | KindTransform;

export const TRANSFORM_NAMES = [...Object.keys(TEXT_TRANSFORMS), ...Object.keys(KIND_TRANSFORMS)] as [
  TransformName,
  ...TransformName[],
];

function isTextTransform(name: TransformName): name is TextTransform {
  return name in TEXT_TRANSFORMS;
}

/** Applies the text transforms in order; kind transforms are read by `specFromTransforms`. */
export function applyTextTransforms(text: string, transforms: readonly TransformName[]): string {
  let result = text;
  for (const name of transforms) if (isTextTransform(name)) result = TEXT_TRANSFORMS[name](result);
  return result;
}

/** The field's spec: the last kind transform wins over the field table's kind. */
export function specFromTransforms(base: FieldSpec, transforms: readonly TransformName[]): FieldSpec {
  let spec = base;
  for (const name of transforms) if (!isTextTransform(name)) spec = { ...spec, ...KIND_TRANSFORMS[name] };
  return spec;
}
