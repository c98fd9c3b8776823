import { type ApiAnswer, errorAnswer } from './answers.js';
import { strikes } from './faults.js';
import { limitHeaders, resetHeaders, takeFromDailyLimit } from './quota.js';
import { ROUTES } from './routes.js';
import type { SandboxState } from './state.js';

export interface ApiRequest {
  method: string;
  /** Path relative to /api/v1, without query, e.g. '/products'. */
  path: string;
  /** The base URL as the client addressed it (its Host header), so next-page URLs keep its origin. */
  baseUrl: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

export interface ApiOutcome {
  answer: ApiAnswer;
  /** The seller behind a valid key, for the stats. */
  seller?: string;
}

/**
 * One request through the sandbox, in the order a live API would plausibly check it:
 * key (401, spec 5) → daily limit (429, spec 8) → injected server fault (500) → route (404/405) →
 * the operation, whose write may then lose its response (`dropResponseRate`).
 */
export function handleApiRequest(state: SandboxState, request: ApiRequest): ApiOutcome {
  const key = bearerKey(request.authorization);
  const seller = key === undefined ? undefined : state.keys.get(key);
  if (key === undefined || seller === undefined) {
    return {
      answer: errorAnswer(401, 'unauthorized', 'missing, invalid or revoked API key', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      }),
    };
  }

  let headers: Record<string, string> = {};
  const limit = state.dailyLimit;
  if (limit !== null) {
    const now = state.options.now();
    const decision = takeFromDailyLimit(state.usage.get(key), limit, now, state.options.dayLengthMs);
    state.usage.set(key, decision.usage);
    const shown = (remaining: number) => (state.options.limitHeaders ? limitHeaders(limit, remaining) : {});
    if (!decision.allowed) {
      const rateHeaders = {
        ...shown(0),
        ...resetHeaders(state.options.resetHeader, decision.resetAtMs, now),
      };
      const message = 'the daily request limit was reached';
      return { answer: errorAnswer(429, 'daily_limit_reached', message, { headers: rateHeaders }), seller };
    }
    headers = shown(decision.remaining);
  }

  if (strikes(state.faults.failRate, state.options.random)) {
    return {
      answer: errorAnswer(500, 'internal_error', 'an unexpected error occurred', { headers }),
      seller,
    };
  }

  const methods = ROUTES[request.path];
  if (!methods) return { answer: errorAnswer(404, 'not_found', 'no such endpoint', { headers }), seller };
  const route = methods[request.method];
  if (!route) {
    const allow = Object.keys(methods).join(', ');
    const message = `${request.method} is not allowed here`;
    return {
      answer: errorAnswer(405, 'method_not_allowed', message, { headers: { ...headers, Allow: allow } }),
      seller,
    };
  }

  const result = route.handler(state, {
    seller,
    path: request.path,
    baseUrl: request.baseUrl,
    query: request.query,
    body: request.body,
  });
  if (result.kind === 'answer' && route.write && result.status < 300) {
    state.stats.writeApplied();
    if (strikes(state.faults.dropResponseRate, state.options.random))
      return { answer: { kind: 'drop' }, seller };
  }
  if (result.kind === 'answer') result.headers = { ...headers, ...result.headers };
  return { answer: result, seller };
}

function bearerKey(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
