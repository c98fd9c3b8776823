import { CatalogConfigError } from './errors.js';
import { meantField, TOOL_FIELDS } from './field-names.js';

/**
 * A mapping file's fields are sent under the names it gives them. A product field misspelt
 * (`quantiy`), in another case (`Price`) or under another platform's word (`stock`) would be sent as
 * a new text field that the marketplace keeps and ignores, while the field meant is never written:
 * refused, naming the key and the field meant, before the source is read. A name far from every
 * product field (`material`), an ordinary attribute word however near one (`height`, one letter from
 * `weight`) and a field's name numbered (`price2`) are custom fields, sent as they are (meantField);
 * `custom: true` sends any other near one (`prices`) all the same.
 */
export function checkMappingTargets(spec: {
  /** The mapping file's name. */
  origin: string;
  fields: Readonly<Record<string, { custom?: boolean | undefined } | null>>;
}): void {
  for (const [field, rule] of Object.entries(spec.fields)) {
    if (rule?.custom) {
      if (TOOL_FIELDS.includes(field))
        throw new CatalogConfigError(
          `${spec.origin}: fields.${field}.custom: ${field} is a product field, not a custom one: drop custom`,
        );
      continue;
    }
    const meant = meantField(field);
    if (!meant) continue;
    const hint = meant.otherName
      ? `the ${field} field is ${meant.field}`
      : `the nearest field is ${meant.field}`;
    // A null rule removes a preset's field: no preset gives this one, and custom: true has no place.
    const custom =
      rule === null ? '' : ` (to send a field named ${field} all the same, give it custom: true)`;
    throw new CatalogConfigError(
      `${spec.origin}: fields.${field}: no product field is named so; ${hint}${custom}`,
    );
  }
}
