import { resumeCommand } from '../runs/connection-words.js';
import type { RunRecord } from '../runs/run-store.js';
import type { RejectedKeys } from '../sellers/rejected-keys.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { SellerRegistry } from '../sellers/seller-registry.js';
import { heldKeys } from '../sellers/servable-sellers.js';
import { readKey } from '../trust-config.js';
import { keyEnvRefusal, type TrustRules } from '../trust-rules.js';

/** What finding a run's key reads: the process's keys and trust rules, the seller's links and rejected keys. */
export interface KeyDeps {
  env: NodeJS.ProcessEnv;
  trust: TrustRules;
  registry: Pick<SellerRegistry, 'resolveRef' | 'resolveRefs'>;
  sellers: { rejectedKeys: Pick<RejectedKeys, 'of'> };
  /** Set for a worker that reads its --keys-file again (WorkerDeps.refreshKeys). */
  refreshKeys?: unknown;
  /** WorkerDeps.command: the command whose workers these are; absent: a `worker`. */
  command?: 'run' | 'approve';
}

export type KeyLookup =
  /** `name`: the variable it was read from, watched for a change (keyStillHeld). */
  | { key: string; name: string; missing?: undefined }
  /** `names`: the variables that hold the seller's rejected keys (names only, never a key). */
  | { missing: 'rejected'; names: string[] }
  /** `unlinked`: the run's variable holds a key linked to no seller (a new key `resume` has not linked yet). */
  | { missing: 'unset' | 'other-seller' | 'unlinked' };

/**
 * The key of the run's seller: the one in the variable the run names, else any key this process
 * holds (issue 13: a worker serving many sellers holds each key under a name of its own, e.g. in
 * `--keys-file`) whose fingerprint belongs to the seller, leaving out the keys the API rejected for
 * it. `unset`: none held and the variable unset; `other-seller`: keys held, none the seller's;
 * `rejected`: only rejected ones.
 */
export async function keyOfSeller(deps: KeyDeps, run: RunRecord): Promise<KeyLookup> {
  const rejected = await deps.sellers.rejectedKeys.of(run.sellerRef);
  const usable = (key: string) => !rejected.has(sellerRef(run.baseUrl, key));
  const named = readKey(deps.env, run.keyEnv, deps.trust);
  const held: string[] = [];
  // The variable the run names first: one fingerprint, where a worker may hold thousands of keys.
  const namedFingerprint = named === undefined ? null : sellerRef(run.baseUrl, named);
  const namedRef = namedFingerprint === null ? null : await deps.registry.resolveRef(namedFingerprint);
  if (named && namedRef === run.sellerRef) {
    if (usable(named)) return { key: named, name: run.keyEnv };
    held.push(named);
  }
  const candidates = heldKeys(deps.env, deps.trust).filter((key) => key !== named);
  const refs = await deps.registry.resolveRefs(candidates.map((key) => sellerRef(run.baseUrl, key)));
  const found = candidates.filter((_, i) => refs[i] === run.sellerRef);
  const fresh = found.find(usable);
  if (fresh) return { key: fresh, name: namesHolding(deps, [fresh])[0] ?? run.keyEnv };
  held.push(...found);
  if (held.length > 0) return { missing: 'rejected', names: namesHolding(deps, held) };
  if (!named) return { missing: 'unset' };
  // Its own fingerprint: no `--seller` or `resume` linked it to any seller (a rotated key, say).
  return { missing: namedRef === namedFingerprint ? 'unlinked' : 'other-seller' };
}

/**
 * Whether the variable a run's key was read from holds it still: a key changed since (a keys file
 * read again) is never sent, and the run's context is built again from the keys as they are now.
 * A read of this process's memory, for every request.
 */
export function keyStillHeld(env: NodeJS.ProcessEnv, found: { key: string; name: string }): boolean {
  return env[found.name]?.trim() === found.key;
}

/** Why the worker cannot serve the run with the key its variable holds (KeyUnavailableError's line). */
export function keyUnavailableLine(
  deps: Pick<KeyDeps, 'trust'>,
  run: RunRecord,
  missing: 'unset' | 'other-seller' | 'unlinked',
): string {
  const seller = run.sellerName ?? run.sellerRef;
  if (missing === 'unset') return `$${run.keyEnv} is not set in this worker; run ${run.id} needs it`;
  if (missing === 'other-seller')
    return `$${run.keyEnv} in this worker holds another seller's key than run ${run.id}'s`;
  return (
    `$${run.keyEnv} in this worker holds a key linked to no seller, not to run ${run.id}'s seller ${seller}: ` +
    `if it is that seller's new key, ${resumeCommand(run, run.keyEnv, { allowedHosts: deps.trust.hosts })} links it`
  );
}

/** The allowed key variables of this process that hold one of `keys`, by name. */
function namesHolding(deps: KeyDeps, keys: readonly string[]): string[] {
  const wanted = new Set(keys);
  return Object.keys(deps.env)
    .filter((name) => keyEnvRefusal(name, deps.trust) === null && wanted.has(deps.env[name]?.trim() ?? ''))
    .sort();
}

/**
 * What the worker says, once per chunk, when it holds none but rejected keys for the run's seller.
 * The workers of a `run` or an `approve` are that command's own: no worker to restart, and the
 * command's own line (exit 3) says what to do.
 */
export function rejectedKeyLine(deps: KeyDeps, run: RunRecord, names: readonly string[]): string {
  const seller = run.sellerName ? `${run.sellerName} (${run.sellerRef})` : run.sellerRef;
  const where = names.map((name) => `$${name}`).join(', ');
  if (deps.command)
    return `run ${run.id}: the key in ${where} was rejected (401) for seller ${seller}: this \`${deps.command}\` sends nothing with it`;
  const file = deps.refreshKeys
    ? "this worker's --keys-file (read again when it changes)"
    : 'its environment, then restart this worker';
  return (
    `run ${run.id}: the key in ${where} of this worker was rejected (401) for seller ${seller}: not sent, ` +
    `its rows stay queued; put the fixed key in ${file}, or, if the marketplace accepts this key again, ` +
    `check it with ${resumeCommand(run, names[0] ?? run.keyEnv, { allowedHosts: deps.trust.hosts })}`
  );
}
