import { describe, expect, it } from 'vitest';
import { isAnsweredWrite, requestsAtLeastIn } from '../../../src/runs/request-counts.js';

describe('isAnsweredWrite', () => {
  it('counts a POST or PUT the API answered 2xx as a write', () => {
    expect(isAnsweredWrite('POST', 201)).toBe(true);
    expect(isAnsweredWrite('PUT', 200)).toBe(true);
  });

  it('counts a refused, failed or unanswered write as a request only', () => {
    for (const status of [400, 401, 404, 429, 500, 503, null]) {
      expect(isAnsweredWrite('POST', status), `POST ${status}`).toBe(false);
      expect(isAnsweredWrite('PUT', status), `PUT ${status}`).toBe(false);
    }
  });

  it('never counts a GET as a write', () => {
    expect(isAnsweredWrite('GET', 200)).toBe(false);
  });
});

describe('requestsAtLeastIn', () => {
  it('says `at least` while an attempt taken over is marked 1, not once it said its counts are added (0)', () => {
    expect(requestsAtLeastIn({ requests: '12' })).toBe(false);
    expect(requestsAtLeastIn({ 'requestsAtLeast:run-0:1': '1' })).toBe(true);
    expect(requestsAtLeastIn({ 'requestsAtLeast:run-0:1': '0' })).toBe(false);
    expect(requestsAtLeastIn({ 'requestsAtLeast:run-0:1': '0', 'requestsAtLeast:run-3:2': '1' })).toBe(true);
    // An earlier version's mark, for the whole run.
    expect(requestsAtLeastIn({ requestsAtLeast: '1' })).toBe(true);
  });
});
