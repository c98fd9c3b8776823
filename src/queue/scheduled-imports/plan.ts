import type { RegisteredSchedule, ScheduleChange, WantedSchedule } from './types.js';

/**
 * What `schedule` must do to make the registered schedulers match the job files: add the new, update
 * those whose cron changed (or whose data holds more than the job name, e.g. the `jobsDir` that
 * older versions stored and no worker reads any more), keep the rest, and remove those whose job file
 * is gone or has no `schedule:` any more. Wanted schedules come first, in their order, then the
 * removals by id.
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
      Object.keys(current.data).length === 1;
    return { kind: same ? 'unchanged' : 'updated', schedule };
  });
  const stale = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const schedule of stale) changes.push({ kind: 'removed', schedule });
  return changes;
}
