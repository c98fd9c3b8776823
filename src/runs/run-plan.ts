import { countOf } from '../count-words.js';
import type { LearnedLimit } from './learned-limit.js';

/** The daily limit a run plans with, and where it comes from (said in the plan line). */
export interface KnownLimit {
  perDay: number;
  /** `--daily-budget`, or `learned from the 429 of 2026-11-22`. */
  source: string;
}

/** `--daily-budget` first (the seller chose it), else the limit the seller's last 429 taught. */
export function knownLimit(budget: number | null, learned: LearnedLimit | null): KnownLimit | null {
  if (budget !== null && budget > 0) return { perDay: budget, source: '--daily-budget' };
  if (learned && learned.limit > 0)
    return {
      perDay: learned.limit,
      source: `learned from the 429 of ${new Date(learned.at).toISOString().slice(0, 10)}`,
    };
  return null;
}

/**
 * The days `needed` requests take: what is left of today's quota first (today counts as a day only
 * when something is left of it), then whole days of `perDay`. At least one.
 */
export function daysNeeded(needed: number, perDay: number, leftToday: number = perDay): number {
  const today = Math.max(0, Math.min(leftToday, perDay));
  if (needed <= today) return 1;
  return Math.max(1, (today > 0 ? 1 : 0) + Math.ceil((needed - today) / perDay));
}

export function dayWord(days: number): string {
  return countOf(days, 'day');
}

export interface StartPlan {
  /** Requests the run needs: at most this many while its rows are not planned, exactly once they are. */
  requests: number;
  exact: boolean;
  /**
   * The bound is the source's estimate and that counts more than rows (a Shopify bulk operation's
   * objects): what it counts, said beside it; the days are then at most.
   */
  overcounts?: string;
  limit: KnownLimit | null;
  /** Requests counted for the seller so far in this quota day. */
  usedToday: number;
  /**
   * `--missing`: a managed product gone from the source costs a PUT more, not counted in `requests`
   * (the rows tell no one which products are gone until the source is read to its end).
   */
  deactivates?: boolean;
}

/** The requests left today under the known limit (never below zero). */
export function leftToday(plan: Pick<StartPlan, 'limit' | 'usedToday'>): number | null {
  return plan.limit ? Math.max(0, plan.limit.perDay - plan.usedToday) : null;
}

/**
 * The line a run says before its first write (issue 14), e.g.
 * `plan      up to 301 requests, 50 a day (--daily-budget), 12 left today: 7 days`. The days count
 * the rows' requests only: how many products are gone is known once the source is read. A bound
 * from a count above the rows says what it counts: `up to 1992 requests (the bulk operation's 1,992
 * objects; rows are fewer), … : at most 3 days`.
 */
export function startPlanLine(plan: StartPlan): string {
  const head =
    `plan      ${plan.exact ? '' : 'up to '}${countOf(plan.requests, 'request')}` +
    (plan.overcounts ? ` (${plan.overcounts})` : '') +
    (plan.deactivates ? ' and one per product gone from the source (--missing)' : '');
  const left = leftToday(plan);
  if (!plan.limit || left === null)
    return `${head}; the daily limit is not known (--daily-budget N tells it)`;
  const days = daysNeeded(plan.requests, plan.limit.perDay, left);
  // From a count above the rows, the days are a bound too: the rows may fit in fewer.
  const bound = plan.overcounts && days > 1 ? 'at most ' : '';
  return `${head}, ${plan.limit.perDay} a day (${plan.limit.source}), ${left} left today: ${bound}${dayWord(days)}`;
}

/** A run that needs more than what is left of today's quota (its most valuable writes go first). */
export function exceedsToday(plan: Pick<StartPlan, 'requests' | 'limit' | 'usedToday'>): boolean {
  const left = leftToday(plan);
  return left !== null && plan.requests > left;
}
