import type { Redis } from 'ioredis';
import { countOf } from '../count-words.js';
import { readerStopped } from '../queue/producing-mark.js';
import { sellerLabel } from '../queue/seller-names.js';
import type { RedisKeys } from '../runs/keys.js';
import { newestWithRecord } from '../runs/newest-run.js';
import { RunCountRefused } from '../runs/run-counts.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { rowOutcomes, runCounts } from '../runs/summary.js';
import type { SellerRegistry } from '../sellers/seller-registry.js';
import type { SellerState, SellerStatus } from '../sellers/seller-state.js';
import { terminalSafeLine } from '../terminal-safe.js';
import { runStateText } from './run-state-text.js';

export interface RunListDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
  registry: Pick<SellerRegistry, 'registered'>;
}

/** A run as `status --list` shows it. */
export interface ListedRun {
  id: string;
  createdAt: number;
  state: RunRecord['state'];
  stateText: string;
  /** Its source left unread by a process that stopped: it never ends by itself (run-state-text.ts). */
  readerStopped: boolean;
  sellerRef: string;
  sellerName: string | null;
  source: string;
  dryRun: boolean;
  outcome: string;
  counts: ReturnType<typeof runCounts>;
}

/**
 * The refs of the sellers `seller` names (`--seller`: a name, or a ref as `status` prints it); a
 * name on two base URLs is two sellers. Empty: no such seller is registered.
 */
export async function sellerRefsOf(deps: Pick<RunListDeps, 'registry'>, seller: string): Promise<string[]> {
  const sellers = await deps.registry.registered();
  return sellers.filter((info) => info.name === seller || info.ref === seller).map((info) => info.ref);
}

/**
 * The runs created since `since` (epoch ms), newest first (ties: the later id first), of the sellers
 * `refs` when given, else of all: what a cron job's runs were, read the next morning without their
 * ids. Runs whose record expired (a week) are passed over; one Redis holds forged is left out, as
 * the dashboard does (its own `status <id>` says why).
 */
export async function listRuns(
  deps: RunListDeps,
  since: number,
  refs: readonly string[] | null,
  now: number,
): Promise<ListedRun[]> {
  const indexes = refs === null ? [deps.keys.runs] : refs.map((ref) => deps.keys.sellerRuns(ref));
  const ids: Array<{ id: string; createdAt: number }> = [];
  for (const index of indexes) {
    const scored = await deps.redis.zrevrangebyscore(index, '+inf', since, 'WITHSCORES');
    for (let i = 0; i + 1 < scored.length; i += 2)
      ids.push({ id: scored[i] as string, createdAt: Number(scored[i + 1]) });
  }
  ids.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const listed: ListedRun[] = [];
  const statuses = new Map<string, SellerStatus>();
  for (const { id, createdAt } of ids) {
    const run = await readable(deps.runs, id);
    if (!run) continue;
    let status = statuses.get(run.sellerRef);
    if (!status) {
      status = await deps.sellers.status(run.sellerRef, run.dailyReset);
      statuses.set(run.sellerRef, status);
    }
    const counts = runCounts(run);
    const stopped = await readerStopped(deps, run);
    listed.push({
      id,
      createdAt,
      state: run.state,
      stateText: runStateText(run, status, now, stopped),
      readerStopped: stopped,
      sellerRef: run.sellerRef,
      sellerName: run.sellerName ?? null,
      source: run.source,
      dryRun: run.dryRun === true,
      outcome: listedOutcome(run, counts),
      counts,
    });
  }
  return listed;
}

/** The newest run of the sellers `refs` that Redis still holds, or null: `status --seller NAME`. */
export async function latestRunOf(deps: RunListDeps, refs: readonly string[]): Promise<string | null> {
  let latest: { id: string; at: number } | null = null;
  for (const ref of refs) {
    const newest = await newestWithRecord(
      deps.redis,
      deps.keys.sellerRuns(ref),
      async (id) => (await readable(deps.runs, id)) !== null,
    );
    if (newest && (!latest || newest.at > latest.at)) latest = newest;
  }
  return latest?.id ?? null;
}

/**
 * What became of a run: its rows' outcomes, then its `--missing` deactivations where it has any
 * (not rows: the summary gives them a line of their own, and a list line without them would show a
 * run that deactivated products as one that only wrote its rows). Those already showing the values
 * are no write, and not said.
 */
export function listedOutcome(
  run: Pick<RunRecord, 'dryRun' | 'approvedQueued' | 'approvalUnqueued'>,
  counts: ReturnType<typeof runCounts>,
): string {
  return [
    rowOutcomes(run, counts),
    counts.deactivated ? `${counts.deactivated} deactivated` : '',
    counts.toDeactivate ? `${counts.toDeactivate} to deactivate` : '',
    counts.deactivateHeld ? countOf(counts.deactivateHeld, 'deactivation held', 'deactivations held') : '',
    counts.deactivateFailed
      ? countOf(counts.deactivateFailed, 'deactivation failed', 'deactivations failed')
      : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** `20261127T020001-ab12cd  done  seller nightly (3f2a…)  feed.csv  12 created, …`: one line a run. */
export function listedRunLine(run: ListedRun): string {
  // One line a run whatever Redis holds: a newline in a source's name must not make a second run.
  return [
    run.id,
    `${run.stateText}${run.dryRun ? ' (dry run)' : ''}`,
    `seller ${sellerLabel(run.sellerRef, run.sellerName)}`,
    run.source,
    run.outcome,
  ]
    .map(terminalSafeLine)
    .join('  ');
}

async function readable(runs: RunStore, id: string): Promise<RunRecord | null> {
  try {
    return await runs.get(id);
  } catch (error) {
    if (error instanceof RunCountRefused) return null;
    throw error;
  }
}
