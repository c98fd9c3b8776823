import type { RegisteredSchedule, ScheduleChange, WantedSchedule } from './types.js';

/**
 * What `schedule` must do to make the registered schedulers match the job files: add the new, update
 * those whose cron or jobs folder changed, keep the rest, and remove those whose job file is gone or
 * has no `schedule:` any more. Wanted schedules come first, in their order, then the removals.
 */
export function planSchedules(wanted: WantedSchedule[], registered: RegisteredSchedule[]): ScheduleChange[] {
  const byId = new Map(registered.map((schedule) => [schedule.id, schedule]));
  const changes: ScheduleChange[] = wanted.map((schedule) => {
    const current = byId.get(schedule.id);
    byId.delete(schedule.id);
    if (!current) return { kind: 'added', schedule };
    const same =
      current.pattern === schedule.pattern &&
      current.tz === schedule.tz &&
      current.data?.job === schedule.data.job &&
      current.data?.jobsDir === schedule.data.jobsDir;
    return { kind: same ? 'unchanged' : 'updated', schedule };
  });
  for (const stale of byId.values()) changes.push({ kind: 'removed', schedule: stale });
  return changes;
}
