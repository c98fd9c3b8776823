/** The catalog stage: source records → product upserts (presets, mapping files, decimals, validation). */
export type { DecimalStyle, ParsedDecimal } from './decimal.js';
export {
  compareDecimals,
  decimalEquals,
  decimalToNumber,
  isExactAsNumber,
  parseDecimal,
  toCents,
  toDecimal,
} from './decimal.js';
export { checkPreset, type Detection, detectPreset } from './detect-preset.js';
export { ERROR_COLUMN } from './error-column.js';
export { CatalogConfigError } from './errors.js';
export { type FieldKind, kindOf, PRODUCT_FIELDS } from './fields.js';
export { createMapper, type Mapper, type MapperOptions } from './mapper.js';
export { loadMappingFile, type MappingSpec, parseMapping } from './mapping-file.js';
export { PRESET_NAMES, type PresetName } from './presets/index.js';
export { peekRecords } from './sample.js';
export { TRANSFORM_NAMES, type TransformName } from './transforms.js';
