import { describe, expect, it } from 'vitest';
import { DEFAULT_FIRST, inPasses, writePass } from '../../../src/plan/first-order.js';
import { keepLearned, parseLearned } from '../../../src/runs/learned-limit.js';
import { daysNeeded, exceedsToday, knownLimit, startPlanLine } from '../../../src/runs/run-plan.js';

const DAY = 24 * 3600 * 1000;
const day1 = Date.UTC(2026, 10, 22);

describe('daysNeeded: what is left today first, then whole days', () => {
  it.each([
    [301, 50, 50, 7],
    [301, 50, 12, 7],
    [300, 50, 0, 6],
    [10, 50, 12, 1],
    [12, 50, 12, 1],
    [13, 50, 12, 2],
    [0, 50, 0, 1],
    [100, 50, 99, 2],
  ])('%i requests, %i a day, %i left today: %i days', (needed, perDay, left, days) => {
    expect(daysNeeded(needed, perDay, left)).toBe(days);
  });
});

describe('knownLimit', () => {
  const learned = { dayStart: day1, limit: 40, at: day1 + 3600_000 };

  it('takes --daily-budget first, else the learned limit with the date of its 429', () => {
    expect(knownLimit(50, learned)).toEqual({ perDay: 50, source: '--daily-budget' });
    expect(knownLimit(null, learned)).toEqual({ perDay: 40, source: 'learned from the 429 of 2026-11-22' });
    expect(knownLimit(null, null)).toBeNull();
    expect(knownLimit(null, { ...learned, limit: 0 })).toBeNull();
  });
});

describe('keepLearned: in one window the count only grows, a later window replaces it', () => {
  const first = { dayStart: day1, limit: 50, at: day1 + 1000 };

  it('keeps the higher of the same window: more accepted requests reported, never fewer', () => {
    expect(keepLearned(first, { ...first, limit: 49, at: day1 + 2000 })).toBe(first);
    const more = { ...first, limit: 53, at: day1 + 2000 };
    expect(keepLearned(first, more)).toBe(more);
  });

  it('takes a later day, ignores an earlier one, and takes any when none is stored', () => {
    const next = { dayStart: day1 + DAY, limit: 30, at: day1 + DAY + 5 };
    expect(keepLearned(first, next)).toBe(next);
    expect(keepLearned(next, first)).toBe(next);
    expect(keepLearned(null, first)).toBe(first);
  });

  it('reads back only a well-formed record', () => {
    expect(parseLearned(JSON.stringify(first))).toEqual(first);
    expect(parseLearned('{"dayStart":1,"limit":-3,"at":2}')).toBeNull();
    expect(parseLearned('not json')).toBeNull();
    expect(parseLearned(null)).toBeNull();
  });
});

describe('startPlanLine', () => {
  it('says up to, the limit and its source, what is left today and the days', () => {
    const line = startPlanLine({
      requests: 301,
      exact: false,
      limit: { perDay: 50, source: '--daily-budget' },
      usedToday: 38,
    });
    expect(line).toBe('plan      up to 301 requests, 50 a day (--daily-budget), 12 left today: 7 days');
  });

  it('says what an estimate above the rows counts, and its days as at most', () => {
    const plan = {
      requests: 1992,
      exact: false,
      overcounts: "the bulk operation's 1,992 objects; rows are fewer",
      limit: { perDay: 1000, source: '--daily-budget' },
      usedToday: 934,
    };
    expect(startPlanLine(plan)).toBe(
      "plan      up to 1992 requests (the bulk operation's 1,992 objects; rows are fewer), " +
        '1000 a day (--daily-budget), 66 left today: at most 3 days',
    );
    expect(startPlanLine({ ...plan, requests: 40 })).toMatch(/66 left today: 1 day$/);
  });

  it('says that deactivations come on top of the rows with --missing', () => {
    const line = startPlanLine({ requests: 8, exact: false, limit: null, usedToday: 0, deactivates: true });
    expect(line).toBe(
      'plan      up to 8 requests and one per product gone from the source (--missing); ' +
        'the daily limit is not known (--daily-budget N tells it)',
    );
  });

  it('says when the limit is not known, and never a negative left', () => {
    expect(startPlanLine({ requests: 1, exact: true, limit: null, usedToday: 3 })).toBe(
      'plan      1 request; the daily limit is not known (--daily-budget N tells it)',
    );
    const over = { requests: 5, exact: false, limit: { perDay: 5, source: '--daily-budget' }, usedToday: 9 };
    expect(startPlanLine(over)).toContain('0 left today: 1 day');
    expect(exceedsToday(over)).toBe(true);
    expect(exceedsToday({ ...over, usedToday: 0 })).toBe(false);
    expect(exceedsToday({ ...over, limit: null })).toBe(false);
  });
});

describe('writePass and inPasses: --first updates, other updates, creates; each in row order', () => {
  const write = (row: number, action: 'create' | 'update', fields: Record<string, unknown>) => ({
    row,
    action,
    fields: fields as never,
  });
  const writes = [
    write(1, 'create', { sku: 'A', price: 1 }),
    write(2, 'update', { name: 'x' }),
    write(3, 'update', { price: 2 }),
    write(4, 'update', { name: 'y', quantity: 0 }),
    write(5, 'create', { sku: 'B' }),
    write(6, 'update', { description: 'z' }),
  ];

  it('puts updates of price or quantity first by default, creates last (a create with a price too)', () => {
    expect(writePass(writes[0] as never, DEFAULT_FIRST)).toBe(2);
    expect(inPasses(writes, DEFAULT_FIRST).map((w) => w.row)).toEqual([3, 4, 2, 6, 1, 5]);
  });

  it('follows --first', () => {
    expect(inPasses(writes, ['name']).map((w) => w.row)).toEqual([2, 4, 3, 6, 1, 5]);
    expect(inPasses(writes, ['colour']).map((w) => w.row)).toEqual([2, 3, 4, 6, 1, 5]);
  });
});
