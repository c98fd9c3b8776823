import { describe, expect, it } from 'vitest';
import { errorFromFailure, ServerError, TimeoutError } from '../../../src/seller-api/errors/index.js';
import { afterTries, errorAction, pauseOf, retriesFor } from '../../../src/sync/error-policy.js';
import { ApiUnreachableError } from '../../../src/sync/seller-pause.js';
import { unreachedCause } from '../../../src/sync/unreached.js';

const BASE_URL = 'https://api.example.com/api/v1';

/** A rejected fetch as undici builds it: `fetch failed`, caused by the system error. */
function fetchFailed(code: string, message = `connect ${code} 203.0.113.7:443`): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

function failure(method: string, cause: unknown) {
  return errorFromFailure(cause, { method, path: '/products', status: null, timeoutMs: 30_000 });
}

describe('unreachedCause: a request that never reached the API, in words', () => {
  it.each([
    ['ECONNREFUSED', 'connection refused (ECONNREFUSED)'],
    ['ENOTFOUND', 'host not found (DNS) (ENOTFOUND)'],
    ['EAI_AGAIN', 'host name lookup failed (DNS) (EAI_AGAIN)'],
    ['EHOSTUNREACH', 'host unreachable (EHOSTUNREACH)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'connection timed out (UND_ERR_CONNECT_TIMEOUT)'],
  ])('%s, for a read and a write alike', (code, words) => {
    for (const method of ['GET', 'POST', 'PUT']) {
      expect(unreachedCause(failure(method, fetchFailed(code)))).toBe(words);
    }
  });

  it('a read that timed out with no answer; not a write, which may have been applied', () => {
    const timeout = (method: string) =>
      new TimeoutError({ method, path: '/products', status: null, outcomeUnknown: method !== 'GET' }, 30_000);
    expect(unreachedCause(timeout('GET'))).toBe('no answer within 30000 ms (ETIMEDOUT)');
    expect(unreachedCause(timeout('POST'))).toBeNull();
  });

  it('not a request that reached the API: a reset after sending, a 5xx', () => {
    expect(unreachedCause(failure('GET', fetchFailed('ECONNRESET', 'socket hang up')))).toBeNull();
    expect(unreachedCause(new ServerError({ method: 'GET', path: '/products', status: 503 }))).toBeNull();
  });
});

describe('the error table for an API out of reach', () => {
  it('tries again first, in the one retry layer of the request', () => {
    const refused = (method: string) => failure(method, fetchFailed('ECONNREFUSED'));
    expect(errorAction(refused('GET'), 'read')).toBe('retry');
    expect(errorAction(refused('POST'), 'create')).toBe('retry');
    expect(errorAction(refused('PUT'), 'update')).toBe('retry');
  });

  it('once the tries are used up, pauses the seller with one line naming the base URL and the cause', () => {
    const final = afterTries(failure('POST', fetchFailed('ECONNREFUSED')), BASE_URL, 1000);

    expect(final).toBeInstanceOf(ApiUnreachableError);
    expect(pauseOf(final)?.reason).toBe('unreachable');
    expect((final as Error).message).toBe(
      'cannot reach https://api.example.com/api/v1: connection refused (ECONNREFUSED)',
    );
  });

  it('once the tries are used up on a request that reached the API, the error stays what it was', () => {
    const reset = failure('GET', fetchFailed('ECONNRESET', 'socket hang up'));
    expect(afterTries(reset, BASE_URL, 1000)).toBe(reset);
  });
});

describe('retriesFor: how often a failure the table retries is tried again', () => {
  const policy = { retries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

  it('never after a connection not made within the connect timeout: that try took it whole', () => {
    for (const method of ['GET', 'POST', 'PUT']) {
      expect(retriesFor(failure(method, fetchFailed('UND_ERR_CONNECT_TIMEOUT')), policy)).toBe(0);
    }
  });

  it("the policy's count for a failure told at once, or one that reached the API", () => {
    expect(retriesFor(failure('GET', fetchFailed('ECONNREFUSED')), policy)).toBe(4);
    expect(retriesFor(failure('GET', fetchFailed('ENOTFOUND')), policy)).toBe(4);
    expect(retriesFor(new ServerError({ method: 'GET', path: '/products', status: 503 }), policy)).toBe(4);
  });
});
