import { describe, expect, it } from 'vitest';
import { remainingRequests } from '../../../src/seller-api/remaining-requests.js';

describe('remainingRequests: what the API says is left of its day', () => {
  it.each([
    [{ 'x-ratelimit-remaining': '42' }, 42],
    [{ 'x-rate-limit-remaining': '0' }, 0],
    [{ 'ratelimit-remaining': ' 7 ' }, 7],
    [{ ratelimit: 'limit=100, remaining=3, reset=60' }, 3],
  ])('reads %o', (headers, count) => {
    expect(remainingRequests(headers)).toBe(count);
  });

  it.each([
    [{}],
    [{ 'x-ratelimit-remaining': '' }],
    [{ 'x-ratelimit-remaining': '-1' }],
    [{ 'x-ratelimit-remaining': 'many' }],
    [{ 'x-ratelimit-remaining': '1e3' }],
    [{ ratelimit: 'limit=100, reset=60' }],
  ])('says nothing for %o', (headers) => {
    expect(remainingRequests(headers)).toBeNull();
  });
});
