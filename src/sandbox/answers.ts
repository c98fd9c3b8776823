/** What the API decided to do with a request; the server turns it into bytes (or a dropped socket). */
export type ApiAnswer = JsonAnswer | { kind: 'drop' };

/** An answer with a status; `body` undefined means no body at all. */
export interface JsonAnswer {
  kind: 'answer';
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

/** A JSON answer; `body` undefined answers with no body at all. */
export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): JsonAnswer {
  return { kind: 'answer', status, headers, body };
}

/**
 * The error body of every 4xx and 5xx: `{error: {code, message, field?, fields?}}` (spec 7: shape
 * "not shown"); `fields` when one answer refuses several fields at once.
 */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  extra: { field?: string; fields?: string[]; headers?: Record<string, string> } = {},
): JsonAnswer {
  const error: { code: string; message: string; field?: string; fields?: string[] } = { code, message };
  if (extra.field !== undefined) error.field = extra.field;
  if (extra.fields !== undefined) error.fields = extra.fields;
  return answer(status, { error }, extra.headers);
}
