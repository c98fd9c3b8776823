import { MAX_BODY_LENGTH } from '../defaults.js';
import { AnswerCapError } from './errors/answer-cap-error.js';
import type { ErrorContext } from './errors/from-response.js';
import { errorFromResponse } from './errors/from-response.js';
import { InvalidResponseError } from './errors/invalid-response-error.js';
import { oneLine } from './errors/one-line.js';
import { keyForms, redact, redactBody } from './errors/redact-key.js';
import type { SellerApiError } from './errors/seller-api-error.js';
import { normaliseId } from './remote-record.js';
import type { Answer } from './transport.js';

/** The error a non-2xx answer means (errors/from-response.ts), or null for a success. */
export function errorOfAnswer(
  answer: Answer,
  context: ErrorContext,
  alsoAccept: readonly number[] = [],
): SellerApiError | null {
  if ((answer.status >= 200 && answer.status < 300) || alsoAccept.includes(answer.status)) return null;
  return errorFromResponse(
    {
      method: answer.method,
      path: answer.path,
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
      body: answer.text,
    },
    context,
  );
}

/** The body as JSON; `undefined` when empty. Broken JSON is an InvalidResponseError. */
export function parseJsonBody(answer: Answer, secret: string): unknown {
  if (answer.text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? ` (${oneLine(error.message, 120)})` : '';
    throw invalidResponse(answer, secret, `the body is not valid JSON${detail}`, true);
  }
  // Every string the API gave, once parsed: a key echoed in JSON escapes goes no further (to Redis, a report).
  const forms = keyForms(secret);
  return forms.mayHold(answer.text) ? forms.redactParsed(parsed) : parsed;
}

export function invalidResponse(
  answer: Answer,
  secret: string,
  reason: string,
  retryable = false,
): InvalidResponseError {
  return new InvalidResponseError(answerDetails(answer, secret, reason), retryable);
}

/** A list read past a cap of answer-caps.ts. */
export function answerCapPassed(answer: Answer, secret: string, reason: string): AnswerCapError {
  return new AnswerCapError(answerDetails(answer, secret, reason));
}

function answerDetails(answer: Answer, secret: string, reason: string) {
  return {
    method: answer.method,
    path: redact(answer.path, secret),
    status: answer.status,
    headers: answer.headers,
    body: redactBody(answer.text, secret).slice(0, MAX_BODY_LENGTH),
    reason: redact(reason, secret),
  };
}

/** The id in a `Location` header: `…/products?id=42`, or a last path segment `…/products/42`. */
export function idFromLocation(answer: Answer): string | null {
  const location = answer.headers.location;
  if (!location) return null;
  let url: URL;
  try {
    url = new URL(location, answer.url);
  } catch {
    return null;
  }
  const fromQuery = normaliseId(url.searchParams.get('id') ?? undefined);
  if (fromQuery !== null) return fromQuery;
  const last = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  return /^\d+$/.test(last) ? last : null;
}
