import { describe, expect, it } from 'vitest';
import {
  ConnectionFailure,
  errorFromFailure,
  ServerError,
  TimeoutError,
  TlsHandshakeFailure,
} from '../../../src/seller-api/errors/index.js';
import { afterTries, errorAction, pauseOf, retriesFor } from '../../../src/sync/error-policy.js';
import { ApiUnreachableError } from '../../../src/sync/seller-pause.js';
import { outOfReachCause, unansweredCause, unreachedCause } from '../../../src/sync/unreached.js';

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
    const answered = new ServerError({ method: 'GET', path: '/products', status: 503 });
    expect(afterTries(reset, BASE_URL, 1000, [answered, reset])).toBe(reset);
    expect(afterTries(answered, BASE_URL, 1000)).toBe(answered);
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

describe('a TLS handshake that failed: the API was not reached, and the cause is named', () => {
  const policy = { retries: 4, baseDelayMs: 500, maxDelayMs: 30_000 };
  /** What http-requester.ts rejects with when the error came between TCP connect and TLS up. */
  const handshake = (code: string, message: string) =>
    new TlsHandshakeFailure(Object.assign(new Error(message), { code }));
  const plainHttp = handshake(
    'EPROTO',
    'write EPROTO 800C8B46607F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:',
  );

  it('https:// to a plain HTTP port, for a read and a write alike: nothing was sent, nothing retried', () => {
    for (const method of ['GET', 'POST', 'PUT']) {
      const error = failure(method, plainHttp);
      expect(unreachedCause(error)).toBe(
        'TLS handshake failed: the server answered in plain HTTP, not TLS (https:// to an http:// port) (EPROTO)',
      );
      expect(error.outcomeUnknown).toBe(false);
      expect(retriesFor(error, policy)).toBe(0);
    }
  });

  it('a certificate not trusted, or for another host, whichever client saw it', () => {
    const untrusted = failure('POST', fetchFailed('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'));
    expect(unreachedCause(untrusted)).toMatch(
      /^TLS handshake failed: the server's certificate is not trusted: .* \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/,
    );
    expect(untrusted.outcomeUnknown).toBe(false);
    const other = failure(
      'GET',
      handshake('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
    );
    expect(unreachedCause(other)).toBe(
      "TLS handshake failed: the server's certificate is for another host (ERR_TLS_CERT_ALTNAME_INVALID)",
    );
    expect(retriesFor(other, policy)).toBe(0);
    expect((afterTries(other, BASE_URL, 1000) as Error).message).toBe(
      "cannot reach https://api.example.com/api/v1: TLS handshake failed: the server's certificate is for another host (ERR_TLS_CERT_ALTNAME_INVALID)",
    );
  });

  it('a reset during the handshake is not reached either, and is tried again: it may pass', () => {
    const reset = failure(
      'POST',
      handshake(
        'ECONNRESET',
        'Client network socket disconnected before secure TLS connection was established',
      ),
    );
    expect(unreachedCause(reset)).toBe(
      'TLS handshake failed: Client network socket disconnected before secure TLS connection was established (ECONNRESET)',
    );
    expect(reset.outcomeUnknown).toBe(false);
    expect(retriesFor(reset, policy)).toBe(4);
  });
});

describe('unansweredCause: the server took the connection and closed it without a byte of answer', () => {
  const HTTP_URL = 'http://127.0.0.1:8080/api/v1';
  /** What the node:http requester rejects with: the Node error, after the connection was made. */
  const closed = (method: string, code: string, message: string, extra: object = {}) =>
    failure(method, new ConnectionFailure(Object.assign(new Error(message), { code }, extra), true));
  const hangUp = (method = 'GET') => closed(method, 'ECONNRESET', 'socket hang up');

  it('a reset, a hang-up or EPIPE before any answer, in words; still counted as possibly sent', () => {
    expect(unansweredCause(hangUp(), HTTP_URL)).toBe(
      'the server closed the connection without answering (ECONNRESET)',
    );
    expect(unansweredCause(closed('PUT', 'EPIPE', 'write EPIPE'), HTTP_URL)).toBe(
      'the server closed the connection without answering (EPIPE)',
    );
    expect(hangUp('POST').notSent).toBe(false);
    expect(hangUp('POST').outcomeUnknown).toBe(true);
  });

  it('http:// to the usual TLS port hints https://', () => {
    expect(unansweredCause(hangUp(), 'http://api.example.com:443/api/v1')).toBe(
      'the server closed the connection without answering (ECONNRESET); port 443 is the usual TLS port: use https://',
    );
  });

  it('http:// answered by a TLS record (an alert) hints https://; other bytes that are not HTTP are an answer', () => {
    const alert = Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46]);
    const parse = (rawPacket: Buffer) =>
      closed('GET', 'HPE_INVALID_CONSTANT', 'Parse Error: Expected HTTP/', { rawPacket, bytesParsed: 0 });
    expect(unansweredCause(parse(alert), HTTP_URL)).toBe(
      'the server closed the connection without an HTTP answer: it answered in TLS, not plain HTTP (http:// to an https:// port: use https://) (HPE_INVALID_CONSTANT)',
    );
    expect(unansweredCause(parse(Buffer.from('HTTX/1.1 200 OK\r\n')), HTTP_URL)).toBeNull();
  });

  it('not an answer that came, a timeout, nor a failure unreachedCause already names', () => {
    expect(
      unansweredCause(new ServerError({ method: 'GET', path: '/products', status: 503 }), HTTP_URL),
    ).toBeNull();
    const midBody = errorFromFailure(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }), {
      method: 'GET',
      path: '/products',
      status: 200,
      timeoutMs: 30_000,
    });
    expect(unansweredCause(midBody, HTTP_URL)).toBeNull();
    const timeout = new TimeoutError({ method: 'GET', path: '/products', status: null }, 30_000);
    expect(unansweredCause(timeout, HTTP_URL)).toBeNull();
    expect(unansweredCause(failure('GET', fetchFailed('ECONNREFUSED')), HTTP_URL)).toBeNull();
  });
});

describe('outOfReachCause, once the tries are used up', () => {
  const HTTP_URL = 'http://127.0.0.1:8080/api/v1';
  const hangUp = () =>
    failure(
      'GET',
      new ConnectionFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true),
    );
  const answered = new ServerError({ method: 'GET', path: '/products', status: 503 });

  it('no try answered: out of reach, said as the last try failed', () => {
    expect(outOfReachCause([hangUp(), hangUp(), hangUp()], HTTP_URL)).toBe(
      'the server closed the connection without answering (ECONNRESET)',
    );
    expect(outOfReachCause([failure('GET', fetchFailed('ECONNREFUSED')), hangUp()], HTTP_URL)).toBe(
      'the server closed the connection without answering (ECONNRESET)',
    );
  });

  it('a try answered: the reset is a failure of the request, as before', () => {
    expect(outOfReachCause([answered, hangUp()], HTTP_URL)).toBeNull();
  });

  it('a request never reached on its last try is out of reach whatever came before (as before)', () => {
    expect(outOfReachCause([answered, failure('GET', fetchFailed('ECONNREFUSED'))], HTTP_URL)).toBe(
      'connection refused (ECONNREFUSED)',
    );
  });

  it('afterTries pauses the seller for every try unanswered, in the `cannot reach` line', () => {
    const last = hangUp();
    const final = afterTries(last, HTTP_URL, 1000, [hangUp(), last]);
    expect(final).toBeInstanceOf(ApiUnreachableError);
    expect((final as Error).message).toBe(
      'cannot reach http://127.0.0.1:8080/api/v1: the server closed the connection without answering (ECONNRESET)',
    );
    expect(afterTries(last, HTTP_URL, 1000, [answered, last])).toBe(last);
  });

  it('the error table still looks first after a create reset, and retries a reset read', () => {
    const reset = failure(
      'POST',
      new ConnectionFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true),
    );
    expect(errorAction(reset, 'create')).toBe('look-first');
    expect(errorAction(hangUp(), 'read')).toBe('retry');
  });
});
