import { STATUS_CODES } from 'node:http';
import { MAX_BODY_LENGTH } from '../../defaults.js';
import { resetInstant } from '../reset-instant.js';
import { DailyLimitError } from './daily-limit-error.js';
import { EndpointNotFoundError, namesNoRecord } from './endpoint-not-found-error.js';
import { InvalidRequestError } from './invalid-request-error.js';
import { NotFoundError } from './not-found-error.js';
import { reasonFromBody } from './reason.js';
import { redact, redactBody } from './redact-key.js';
import type { SellerApiError, SellerApiErrorDetails } from './seller-api-error.js';
import { ServerError } from './server-error.js';
import { UnauthorizedError } from './unauthorized-error.js';

/** A non-success answer, as the client read it. */
export interface ErrorResponse {
  method: string;
  /** The path after the base URL, with its query. */
  path: string;
  status: number;
  /** Empty over HTTP/2 and from some servers: the standard text is used then. */
  statusText?: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
}

export interface ErrorContext {
  /** Epoch ms, for the reset instant of a 429. */
  now: number;
  /** HH:MM UTC, used when a 429 carries no reset header. */
  dailyReset: string;
  /** The API key: removed from everything the error carries, should the server echo it. */
  secret?: string;
  /** The base URL the client was given: a 404 of the API's own endpoint names it. */
  baseUrl?: string;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one place an HTTP status becomes a meaning (spec section 7). */
export function errorFromResponse(response: ErrorResponse, context: ErrorContext): SellerApiError {
  const { status, method } = response;
  const scrub = (text: string): string => redact(text, context.secret);
  const headers = Object.fromEntries(
    Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), scrub(value)]),
  );
  // After parsing too: a key the API echoed in JSON escapes is not in the raw text (secret-forms.ts).
  const fullBody = redactBody(response.body, context.secret);
  const body = fullBody.slice(0, MAX_BODY_LENGTH);
  const details: SellerApiErrorDetails = {
    method,
    path: scrub(response.path),
    status,
    headers,
    body,
    reason: reasonFromBody(fullBody),
    outcomeUnknown: WRITE_METHODS.has(method) && status >= 500,
  };
  const statusText = response.statusText?.trim() || STATUS_CODES[status] || '';
  switch (status) {
    case 400:
    case 422:
      return new InvalidRequestError(details, statusText);
    case 401:
      return new UnauthorizedError(details, statusText);
    case 404:
      // The request named no record (`GET /products`, `POST /products`): the endpoint itself is not there.
      return context.baseUrl !== undefined && namesNoRecord(response.path)
        ? new EndpointNotFoundError(details, statusText, context.baseUrl)
        : new NotFoundError(details, statusText);
    case 429:
      return new DailyLimitError(details, resetInstant(headers, context.now, context.dailyReset), statusText);
    default:
      return new ServerError(details, statusText);
  }
}
