import { describe, expect, it } from 'vitest';
import { nextDailyReset, parseDailyReset, resetInstant } from '../../../src/seller-api/reset-instant.js';

const now = Date.parse('2024-05-10T15:30:00.000Z');
const at = (iso: string): string => new Date(iso).toISOString();

describe('resetInstant', () => {
  describe('when a header says when the limit resets', () => {
    it.each([
      ['Retry-After in seconds', { 'retry-after': '120' }, '2024-05-10T15:32:00.000Z'],
      [
        'Retry-After as an HTTP date',
        { 'retry-after': 'Fri, 10 May 2024 18:00:00 GMT' },
        '2024-05-10T18:00:00.000Z',
      ],
      ['RateLimit-Reset in delta seconds', { 'ratelimit-reset': '3600' }, '2024-05-10T16:30:00.000Z'],
      [
        'the structured RateLimit header',
        { ratelimit: 'limit=1000, remaining=0, reset=60' },
        '2024-05-10T15:31:00.000Z',
      ],
      [
        'X-RateLimit-Reset in epoch seconds',
        { 'x-ratelimit-reset': String(Date.parse('2024-05-11T00:00:00Z') / 1000) },
        '2024-05-11T00:00:00.000Z',
      ],
      [
        'X-RateLimit-Reset in epoch milliseconds',
        { 'x-ratelimit-reset': String(Date.parse('2024-05-10T20:00:00Z')) },
        '2024-05-10T20:00:00.000Z',
      ],
      ['X-RateLimit-Reset in delta seconds', { 'x-ratelimit-reset': '90' }, '2024-05-10T15:31:30.000Z'],
      ['X-Rate-Limit-Reset (another spelling)', { 'x-rate-limit-reset': '30' }, '2024-05-10T15:30:30.000Z'],
      ['a value with spaces around it', { 'retry-after': ' 60 ' }, '2024-05-10T15:31:00.000Z'],
    ])('reads %s', (_name, headers, expected) => {
      expect(resetInstant(headers, now, '00:00').toISOString()).toBe(expected);
    });

    it('takes the latest when several headers disagree', () => {
      const headers = { 'retry-after': '60', 'ratelimit-reset': '7200', 'x-ratelimit-reset': '30' };
      expect(resetInstant(headers, now, '00:00').toISOString()).toBe(at('2024-05-10T17:30:00Z'));
    });

    it('ignores an unreadable header and uses the sensible one', () => {
      const headers = { 'retry-after': 'soon', 'x-ratelimit-reset': '600' };
      expect(resetInstant(headers, now, '00:00').toISOString()).toBe(at('2024-05-10T15:40:00Z'));
    });

    it('treats a reset a few seconds in the past as now (clock skew, whole-second HTTP dates)', () => {
      const headers = { 'retry-after': 'Fri, 10 May 2024 15:29:50 GMT' };
      expect(resetInstant(headers, now, '00:00').getTime()).toBe(now);
    });
  });

  describe('when no header gives a sensible reset', () => {
    it.each([
      ['no header at all', {}],
      [
        'a reset hours in the past',
        { 'x-ratelimit-reset': String(Date.parse('2024-05-10T10:00:00Z') / 1000) },
      ],
      ['an HTTP date in the past', { 'retry-after': 'Thu, 09 May 2024 15:30:00 GMT' }],
      ['a reset more than 48 hours ahead', { 'retry-after': String(49 * 3600) }],
      ['an epoch far in the future', { 'x-ratelimit-reset': String(Date.parse('2030-01-01T00:00:00Z')) }],
      ['a negative delta', { 'ratelimit-reset': '-30' }],
      ['an empty header', { 'retry-after': '' }],
    ])('falls back to the daily reset with %s', (_name, headers) => {
      expect(resetInstant(headers, now, '00:00').toISOString()).toBe(at('2024-05-11T00:00:00Z'));
    });

    it('uses a custom daily reset later today', () => {
      expect(resetInstant({}, now, '22:15').toISOString()).toBe(at('2024-05-10T22:15:00Z'));
    });

    it('uses a custom daily reset tomorrow when today’s has passed', () => {
      expect(resetInstant({}, now, '07:00').toISOString()).toBe(at('2024-05-11T07:00:00Z'));
    });

    it('accepts exactly 48 hours ahead', () => {
      expect(resetInstant({ 'retry-after': String(48 * 3600) }, now, '00:00').toISOString()).toBe(
        at('2024-05-12T15:30:00Z'),
      );
    });
  });
});

describe('nextDailyReset', () => {
  it.each([
    ['00:00', '2024-05-10T15:30:00Z', '2024-05-11T00:00:00Z'],
    ['15:30', '2024-05-10T15:30:00Z', '2024-05-11T15:30:00Z'],
    ['15:31', '2024-05-10T15:30:00Z', '2024-05-10T15:31:00Z'],
    ['9:05', '2024-12-31T23:00:00Z', '2025-01-01T09:05:00Z'],
    ['00:00', '2024-02-28T12:00:00Z', '2024-02-29T00:00:00Z'],
  ])('at %s after %s is %s (strictly after now)', (daily, from, expected) => {
    expect(nextDailyReset(Date.parse(from), daily).toISOString()).toBe(at(expected));
  });
});

describe('parseDailyReset', () => {
  it.each(['24:00', '12:60', 'noon', '1230', ''])(
    'refuses "%s" with a one-line message naming it',
    (value) => {
      expect(() => parseDailyReset(value)).toThrow(
        `daily reset must be HH:MM (UTC, 00:00 to 23:59), got "${value}"`,
      );
    },
  );
});

describe('resetInstant with a delay in whole seconds (issue 31)', () => {
  // 1.3 s before a reset on a whole second, an API that rounds up says 2.
  const beforeReset = Date.parse('2024-05-10T15:29:58.700Z');

  it.each([
    ['Retry-After', { 'retry-after': '2' }],
    ['RateLimit-Reset', { 'ratelimit-reset': '2' }],
    ['the structured RateLimit header', { ratelimit: 'limit=100, remaining=0, reset=2' }],
    ['X-RateLimit-Reset-After', { 'x-ratelimit-reset-after': '2' }],
  ])('takes the whole second within the last second of the delay from %s', (_name, headers) => {
    expect(resetInstant(headers, beforeReset, '00:00').toISOString()).toBe('2024-05-10T15:30:00.000Z');
  });

  it('keeps a delay in fractions of a second as it is', () => {
    expect(resetInstant({ 'retry-after': '1.5' }, beforeReset, '00:00').toISOString()).toBe(
      '2024-05-10T15:30:00.200Z',
    );
  });
});
