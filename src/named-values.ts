/**
 * Objects keyed by names that come from outside (a source's columns, an answer's header names).
 *
 * On a plain object such a name can be one of Object's own: assigning `__proto__` sets the object's
 * prototype and the value is lost without a word, and reading a name the object lacks (`__proto__`,
 * `constructor`, `toString`) finds Object's member instead of nothing, which a caller then takes
 * for a cell (`text.trim is not a function`). A source with a column named so must read as any other.
 */

/**
 * The prototype of namedValues: an object with no prototype and no members of its own. Objects
 * made from it stay in V8's fast mode (an object made by `Object.create(null)` is a dictionary,
 * slower to fill and read, on every row of a source), while no name finds a member of Object.
 */
const NO_MEMBERS: object = Object.freeze(Object.create(null));

/**
 * An empty set of values by name whose prototype chain holds nothing, so every name, `__proto__`
 * included, is an own value or absent. JSON.stringify, spreads, `for…in` and `Object.entries` see
 * it as a plain object's; it has no methods (nothing here calls any).
 */
export function namedValues<T = string>(): Record<string, T> {
  return Object.create(NO_MEMBERS) as Record<string, T>;
}

/**
 * Sets `name` on a plain object as an own property, `__proto__` too (there, an assignment would set
 * the prototype instead): for objects that must stay plain, such as the joined headers of an answer.
 */
export function setOwn<T>(target: Record<string, T>, name: string, value: T): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}

/**
 * `values` as namedValues: itself when it is one already (what every source reader gives), else a
 * copy. For values made elsewhere (a rest spread, a test's literal) whose missing names would
 * otherwise find Object's members.
 */
export function asNamedValues<T>(values: Record<string, T>): Record<string, T> {
  if (Object.getPrototypeOf(values) === NO_MEMBERS) return values;
  const named = namedValues<T>();
  for (const name of Object.keys(values)) named[name] = values[name] as T;
  return named;
}
