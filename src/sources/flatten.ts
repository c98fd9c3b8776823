/**
 * A JSON item as flat string values, the shape every source yields. Numbers and booleans as text;
 * null is absent ("leave as it is"); a list is joined with `|` (the way CSV exports write several
 * images in one cell); a nested object becomes dotted keys (`price.amount`), also inside lists.
 */
export function flattenItem(item: Record<string, unknown>): Record<string, string> {
  const parts = new Map<string, string[]>();
  collect(item, '', parts);
  const values: Record<string, string> = {};
  for (const [key, list] of parts) values[key] = list.join('|');
  return values;
}

function collect(value: unknown, key: string, parts: Map<string, string[]>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    if (value.length === 0 && key && !parts.has(key)) parts.set(key, []);
    for (const element of value) collect(element, key, parts);
    return;
  }
  if (typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) collect(inner, key ? `${key}.${name}` : name, parts);
    return;
  }
  const list = parts.get(key);
  if (list) list.push(String(value));
  else parts.set(key, [String(value)]);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
