/**
 * The one name no product field can have: `__proto__`. A JSON body carrying it is read by many
 * servers as an attempt to set the prototype of the object they parse it into (prototype pollution),
 * and in this tool's own objects assigning it would drop the value without a word. The generic
 * preset, which sends each column as the field of its name, refuses a column so named instead; a
 * mapping file can still read the column into any other field.
 */
export const UNSENDABLE_FIELD = '__proto__';

/** Why `where` (a column of the header, an item of the source) cannot be sent as it is. */
export function unsendableReason(where: string): string {
  return `${where} has a column named ${UNSENDABLE_FIELD}, which the generic preset would send as a product field of that name: rename it, or read it into another field with --mapping`;
}
