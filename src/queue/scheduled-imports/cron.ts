import { bullmq } from '../../cjs-packages.js';

/** A `schedule:` that BullMQ could not fire: the message says why, in one line. */
export class InvalidCronError extends Error {
  override name = 'InvalidCronError';
}

/**
 * The next time (ms since epoch, after `from`) that a cron pattern fires in UTC, through the same
 * parser BullMQ fires it with. Five fields (minute first) or six (second first), or an `@` alias.
 * cron-parser fills in missing fields (`"* * *"`, even `""`, fire every minute): a typo must not
 * become a schedule, so fewer fields are refused here.
 */
export function nextRunOf(pattern: string, from: number): number {
  const fields = pattern.trim().split(/\s+/).filter(Boolean);
  const alias = fields.length === 1 && fields[0]?.startsWith('@');
  if (!alias && (fields.length < 5 || fields.length > 6)) {
    throw new InvalidCronError(
      `"${pattern}" is not a cron pattern: it takes 5 fields (minute hour day month weekday), or 6 with seconds first`,
    );
  }
  let next: number | undefined;
  try {
    next = bullmq().getNextMillis(from, { pattern: pattern.trim(), tz: 'UTC' });
  } catch (error) {
    throw new InvalidCronError(`"${pattern}" is not a cron pattern: ${(error as Error).message}`);
  }
  if (next === undefined) throw new InvalidCronError(`"${pattern}" never fires`);
  return next;
}
