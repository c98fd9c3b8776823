import { describe, expect, it } from 'vitest';
import { rateFigures, remainingRequests } from '../../../src/seller-api/remaining-requests.js';

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

describe('rateFigures: what is left, and the limit the API says it holds the key to', () => {
  it.each([
    [
      { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '42' },
      { remaining: 42, limit: 100 },
    ],
    [
      { 'ratelimit-limit': '40', 'ratelimit-remaining': '0' },
      { remaining: 0, limit: 40 },
    ],
    [{ ratelimit: 'limit=100, remaining=3, reset=60' }, { remaining: 3, limit: 100 }],
    [{ 'x-ratelimit-remaining': '5' }, { remaining: 5, limit: null }],
    [{ 'x-ratelimit-limit': 'lots' }, { remaining: null, limit: null }],
  ])('reads %o', (headers, figures) => {
    expect(rateFigures(headers)).toEqual(figures);
  });
});
