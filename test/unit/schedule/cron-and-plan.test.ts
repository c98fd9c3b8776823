import { describe, expect, it } from 'vitest';
import {
  InvalidCronError,
  nextRunOf,
  planSchedules,
  type RegisteredSchedule,
  wantedSchedule,
} from '../../../src/queue/scheduled-imports/index.js';

const NOON = Date.parse('2026-03-10T12:00:00.000Z');

describe('nextRunOf (the next firing, in UTC)', () => {
  it.each([
    ['0 2 * * *', '2026-03-11T02:00:00.000Z'],
    ['*/15 * * * *', '2026-03-10T12:15:00.000Z'],
    ['30 4 * * 1', '2026-03-16T04:30:00.000Z'],
    ['* * * * * *', '2026-03-10T12:00:01.000Z'],
    ['@daily', '2026-03-11T00:00:00.000Z'],
    ['  0 2 * * *  ', '2026-03-11T02:00:00.000Z'],
  ])('fires "%s" next at %s', (pattern, next) => {
    expect(new Date(nextRunOf(pattern, NOON)).toISOString()).toBe(next);
  });

  it.each([
    ['', /takes 5 fields/],
    ['0 2 *', /takes 5 fields/],
    ['* * * * * * *', /takes 5 fields/],
    ['61 * * * *', /expected range 0-59/],
    ['0 0 30 2 *', /day of month/],
    ['every night', /takes 5 fields/],
  ])('refuses "%s" with a one-line reason', (pattern, reason) => {
    expect(() => nextRunOf(pattern, NOON)).toThrow(InvalidCronError);
    expect(() => nextRunOf(pattern, NOON)).toThrow(reason);
    try {
      nextRunOf(pattern, NOON);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('planSchedules (job files against the schedulers in Redis)', () => {
  const registered = (
    job: string,
    pattern: string,
    tz: string | null = 'UTC',
    data: Record<string, unknown> = { job },
  ): RegisteredSchedule => ({ id: `job:${job}`, pattern, tz, data: data as { job: string }, next: 0 });

  it.each([
    ['a new job file', [wantedSchedule('a', '0 2 * * *')], [], [['added', 'job:a']]],
    [
      'the same cron',
      [wantedSchedule('a', '0 2 * * *')],
      [registered('a', '0 2 * * *')],
      [['unchanged', 'job:a']],
    ],
    [
      'a cron edited',
      [wantedSchedule('a', '0 3 * * *')],
      [registered('a', '0 2 * * *')],
      [['updated', 'job:a']],
    ],
    [
      // Older versions stored the folder; workers now read their own (`worker --jobs`): rewritten without it.
      'a scheduler whose data still holds a jobsDir',
      [wantedSchedule('a', '0 2 * * *')],
      [registered('a', '0 2 * * *', 'UTC', { job: 'a', jobsDir: '/tmp/evil' })],
      [['updated', 'job:a']],
    ],
    [
      'a scheduler registered in another time zone',
      [wantedSchedule('a', '0 2 * * *')],
      [registered('a', '0 2 * * *', 'Europe/Paris')],
      [['updated', 'job:a']],
    ],
    [
      'a job file gone (or without a schedule)',
      [wantedSchedule('a', '0 2 * * *')],
      [registered('gone', '0 2 * * *'), registered('a', '0 2 * * *')],
      [
        ['unchanged', 'job:a'],
        ['removed', 'job:gone'],
      ],
    ],
    ['no job file at all', [], [registered('a', '0 2 * * *')], [['removed', 'job:a']]],
  ])('with %s: %j', (_, wanted, current, expected) => {
    expect(planSchedules(wanted, current).map((change) => [change.kind, change.schedule.id])).toEqual(
      expected,
    );
  });
});
