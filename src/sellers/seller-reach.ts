import type { Redis } from 'ioredis';
import { UNREACHABLE_TTL_SECONDS } from '../defaults.js';
import { ApiUnreachableError, NoApiAtBaseUrlError } from '../sync/seller-pause.js';

/** A seller whose API could not be reached: since when, why, and when it is probed next. */
export interface UnreachableRecord {
  /** When the API was first found out of reach (ms); kept across probes that fail. */
  since: number;
  /**
   * When a request or probe last failed so (ms): the last try, which `status` names once no process
   * is left to probe. Unset in a record written before it was kept.
   */
  at?: number;
  /** When the next probe may go (ms): until then nothing is sent to the seller. */
  retryAt: number;
  /** Probes that failed since; the wait doubles with each. */
  probes: number;
  /** `connection refused (ECONNREFUSED)`; or the 404 of the API's own endpoint, when `noApi`. */
  cause: string;
  baseUrl: string;
  /** The base URL answers, but no Seller API is there (a 404 of its own endpoint): `run` exits 2. */
  noApi?: boolean;
}

/** The wait before the first probe, doubling after each failed one up to `maxMs`. */
export interface ProbeBackoff {
  firstMs: number;
  maxMs: number;
}

// One step, so that chunks giving up together on one machine or many count one failed probe, not
// one each: while the current wait runs, the record stands (its cause only follows the latest
// failure: the next run says what fails now, not what failed before the user changed something);
// once it is over, the wait doubles. Numbers travel as strings (cjson would round a timestamp in ms).
const MARK_SCRIPT = `
local now = tonumber(ARGV[1])
local old = redis.call('GET', KEYS[1])
local since = now
local probes = 0
if old then
  local record = cjson.decode(old)
  if tonumber(record.retryAt) > now then
    if record.cause == ARGV[4] and record.baseUrl == ARGV[5] and record.noApi == ARGV[6] then return {old, 0} end
    record.cause = ARGV[4]
    record.baseUrl = ARGV[5]
    record.noApi = ARGV[6]
    record.at = string.format('%d', now)
    local updated = cjson.encode(record)
    redis.call('SET', KEYS[1], updated, 'EX', ${UNREACHABLE_TTL_SECONDS})
    return {updated, 0}
  end
  since = tonumber(record.since)
  probes = tonumber(record.probes) + 1
end
local delay = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ probes)
local record = cjson.encode({
  since = string.format('%d', since),
  at = string.format('%d', now),
  retryAt = string.format('%d', now + delay),
  probes = string.format('%d', probes),
  cause = ARGV[4],
  baseUrl = ARGV[5],
  noApi = ARGV[6],
})
redis.call('SET', KEYS[1], record, 'EX', ${UNREACHABLE_TTL_SECONDS})
return {record, 1}
`;

/**
 * Records (or keeps, while its wait runs) that the seller's API is out of reach. `fresh`: this call
 * started the wait (the one to say so in the log), rather than finding it already running.
 */
export async function markUnreachable(
  redis: Redis,
  key: string,
  pause: ApiUnreachableError,
  now: number,
  backoff: ProbeBackoff,
): Promise<{ record: UnreachableRecord; fresh: boolean }> {
  const [json, fresh] = (await redis.eval(
    MARK_SCRIPT,
    1,
    key,
    now,
    backoff.firstMs,
    backoff.maxMs,
    pause.failure,
    pause.baseUrl,
    pause instanceof NoApiAtBaseUrlError ? '1' : '0',
  )) as [string, number];
  const record = parseUnreachable(json);
  if (!record) throw new Error('the unreachable record just written could not be read back');
  return { record, fresh: fresh === 1 };
}

/** The record as stored, or null (none, or not one this tool wrote: Redis is not trusted). */
export function parseUnreachable(json: string | null | undefined): UnreachableRecord | null {
  if (!json) return null;
  try {
    const raw = JSON.parse(json) as Record<string, unknown>;
    const record = {
      since: Number(raw.since),
      retryAt: Number(raw.retryAt),
      probes: Number(raw.probes),
      cause: String(raw.cause ?? ''),
      baseUrl: String(raw.baseUrl ?? ''),
      noApi: raw.noApi === '1',
      ...(Number.isFinite(Number(raw.at)) && raw.at !== undefined ? { at: Number(raw.at) } : {}),
    };
    return [record.since, record.retryAt, record.probes].every(Number.isFinite) ? record : null;
  } catch {
    return null;
  }
}

/**
 * When the API is tried next, as `status` and the dashboard say it. Only a live process that serves
 * the seller (`served`: a worker or a `run` holding its key, served-marks.ts) probes it: with none,
 * no probe time is promised (it would stand long after it passed), the last try is named instead,
 * and who takes the rows up: a worker with the seller's key, or the next `run` of the source, which
 * probe first (`status --list` and the dashboard have no line of their own to say it).
 */
export function nextProbeText(record: UnreachableRecord, now: number, served: boolean): string {
  const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
  if (!served) {
    const last = record.at !== undefined ? `last tried at ${clock(record.at)}; ` : '';
    return (
      `${last}no probe scheduled: no running worker or run serves the seller ` +
      '(a `catalog-sync worker` with its key, or the next `catalog-sync run` of its source, takes it up)'
    );
  }
  return record.retryAt > now ? `probed again at ${clock(record.retryAt)}` : 'probed by the next chunk';
}

/** The pause a record means, for this process to remember until the next probe. */
export function pauseOfRecord(record: UnreachableRecord): ApiUnreachableError {
  return record.noApi
    ? new NoApiAtBaseUrlError(record.baseUrl, record.cause, record.retryAt)
    : new ApiUnreachableError(record.baseUrl, record.cause, record.retryAt);
}
