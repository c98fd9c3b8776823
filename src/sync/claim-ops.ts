import type { Redis } from 'ioredis';
import { luaScript, runScriptWithKeys, VARIABLE_KEYS } from '../redis/scripts.js';

/** A claim of `key` (create-claims.ts): `value` is `run|token|expiresAt`. */
export interface ClaimOp {
  op: 'claim';
  key: string;
  /** The id map's bucket of the key. */
  bucketKey: string;
  /** The run's record, whose 'spec' must still be there; '' to not check it. */
  runKey: string;
  value: string;
  now: number;
  /** The stale value a look-up found nothing for ('' for none): only it may be taken over. */
  takeOver: string;
  /**
   * The id-map entry head (entryHead) of a product whose PUT answered 404 ('' for none): an entry
   * under the key that still names it is not `known`, so the key is claimed for its new create while
   * the entry stays until that create is recorded (row-sync.ts).
   */
  replacing: string;
}

/** A renew of a claim by its holder (`prefix` is `run|token|`): `value` '' releases it. */
export interface RenewOp {
  op: 'renew';
  key: string;
  prefix: string;
  value: string;
}

export interface ClaimAnswer {
  kind: 'lost' | 'known' | 'held' | 'stale' | 'claimed';
  value: string;
}

/** A claim's answer, or whether a renew found the claim its own. */
export type ClaimOpAnswer = ClaimAnswer | boolean;

// Ops per script execution: its HSET then passes at most 2,000 values with unpack() (Lua's C stack
// takes ~8,000), and the call at most ~8,000 arguments (a JavaScript call spreads them). More ops in
// one turn go as several executions, one after the other.
const OPS_PER_SCRIPT = 1000;

const ARGS_PER_OP = 8;

// KEYS[1]: the claims hash; then the run records and id-map buckets the ops name, each once.
// ARGV: per op, in the order asked, 8 values:
//   'claim', key, KEYS index of the run record (0: unchecked), of the bucket, value, now, stale value,
//            the head of an entry that is not `known` ('' for none)
//   'renew', key, 0, 0, holder's prefix, new value ('' releases), '', ''
// The ops are applied one after the other as if each ran alone: the claims hash is read once (HMGET)
// into a table the ops read and change, and written once at the end (HSET, HDEL). No op changes a
// run's record or the id map, so they are read first: each run's record once, each claimed key in
// its bucket (a hash of its own: one HGET each). Answers: two values per op.
const CLAIM_OPS_SCRIPT = luaScript(
  'claimOps',
  VARIABLE_KEYS,
  `
local ops, runLost, wanted, asked = {}, {}, {}, {}
for b = 0, #ARGV - 1, ${ARGS_PER_OP} do
  local op = { kind = ARGV[b + 1], key = ARGV[b + 2] }
  if op.kind == 'renew' then
    op.prefix, op.value = ARGV[b + 5], ARGV[b + 6]
  else
    op.value, op.now, op.takeOver = ARGV[b + 5], tonumber(ARGV[b + 6]), ARGV[b + 7]
    local run = tonumber(ARGV[b + 3])
    if run > 0 then
      if runLost[run] == nil then runLost[run] = redis.call('HEXISTS', KEYS[run], 'spec') == 0 end
      op.lost = runLost[run]
    end
    if not op.lost then op.known = redis.call('HGET', KEYS[tonumber(ARGV[b + 4])], op.key) end
    local replacing = ARGV[b + 8]
    if op.known and replacing ~= '' and
      (op.known == replacing or string.sub(op.known, 1, #replacing + 1) == replacing .. '|') then
      op.known = false
    end
  end
  if not op.lost and not op.known and not asked[op.key] then
    asked[op.key] = true
    wanted[#wanted + 1] = op.key
  end
  ops[#ops + 1] = op
end
local held = {}
if #wanted > 0 then
  local values = redis.call('HMGET', KEYS[1], unpack(wanted))
  for i, key in ipairs(wanted) do held[key] = values[i] end
end
local changed, order, answers = {}, {}, {}
local function change(key, value)
  if changed[key] == nil then order[#order + 1] = key end
  changed[key] = value
  held[key] = value
end
for _, op in ipairs(ops) do
  local kind, value = 'claimed', ''
  local current = held[op.key]
  if op.kind == 'renew' then
    kind = '0'
    if current and string.sub(current, 1, #op.prefix) == op.prefix then
      kind = '1'
      if op.value == '' then change(op.key, false) else change(op.key, op.value) end
    end
  elseif op.lost then
    kind = 'lost'
  elseif op.known then
    kind, value = 'known', op.known
  elseif current and current ~= op.takeOver then
    local expires = tonumber(string.match(current, '|(%d+)$')) or 0
    if expires > op.now then kind = 'held' else kind = 'stale' end
    value = current
  else
    change(op.key, op.value)
  end
  answers[#answers + 1] = kind
  answers[#answers + 1] = value
end
local sets, dels = {}, {}
for _, key in ipairs(order) do
  if changed[key] then
    sets[#sets + 1] = key
    sets[#sets + 1] = changed[key]
  else
    dels[#dels + 1] = key
  end
end
if #sets > 0 then redis.call('HSET', KEYS[1], unpack(sets)) end
if #dels > 0 then redis.call('HDEL', KEYS[1], unpack(dels)) end
return answers
`,
);

/**
 * Applies `ops` to the claims hash `claimsKey` in their order, each as if it ran alone: one script
 * execution per OPS_PER_SCRIPT. Answers per op: a claim's kind and value; a renew's true when the
 * claim was its own.
 */
export async function applyClaimOps(
  redis: Redis,
  claimsKey: string,
  ops: readonly (ClaimOp | RenewOp)[],
): Promise<ClaimOpAnswer[]> {
  const answers: ClaimOpAnswer[] = [];
  // One after the other, not pipelined: a pipelined EVALSHA answered NOSCRIPT is sent again as EVAL
  // after the next one may have run.
  for (let i = 0; i < ops.length; i += OPS_PER_SCRIPT) {
    answers.push(...(await applySlice(redis, claimsKey, ops.slice(i, i + OPS_PER_SCRIPT))));
  }
  return answers;
}

async function applySlice(
  redis: Redis,
  claimsKey: string,
  ops: readonly (ClaimOp | RenewOp)[],
): Promise<ClaimOpAnswer[]> {
  const keys = [claimsKey];
  const indexOf = new Map<string, number>();
  const keyIndex = (key: string): number => {
    if (key === '') return 0;
    let index = indexOf.get(key);
    if (index === undefined) {
      index = keys.push(key);
      indexOf.set(key, index);
    }
    return index;
  };
  const args = ops.flatMap((op): (string | number)[] =>
    op.op === 'claim'
      ? [
          'claim',
          op.key,
          keyIndex(op.runKey),
          keyIndex(op.bucketKey),
          op.value,
          op.now,
          op.takeOver,
          op.replacing,
        ]
      : ['renew', op.key, 0, 0, op.prefix, op.value, '', ''],
  );
  const flat = (await runScriptWithKeys(redis, CLAIM_OPS_SCRIPT, keys, args)) as string[];
  return ops.map((op, i): ClaimOpAnswer => {
    const kind = flat[2 * i] as string;
    if (op.op === 'renew') return kind === '1';
    return { kind: kind as ClaimAnswer['kind'], value: flat[2 * i + 1] ?? '' };
  });
}
