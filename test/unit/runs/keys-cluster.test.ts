import { describe, expect, it } from 'vitest';
import { clusterInfo, parseServerInfo } from '../../../src/redis/server-info.js';
import { RedisKeys, tagRunId } from '../../../src/runs/keys.js';
import { newRunId } from '../../../src/runs/run-record.js';
import { spaceOfField } from '../../../src/sync/match-space.js';

const REF = '0123456789abcdef';
const RUN = '20260101T000000-a1b2c3';

/** Redis Cluster's rule: the slot is the CRC16 of the text between the first `{` and the next `}`. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** Every key name of one seller and one of its runs, as RedisKeys gives them. */
function sellerAndRunKeys(keys: RedisKeys, runId: string): string[] {
  return [
    keys.run(runId),
    keys.outcomes(runId),
    keys.failedSources(runId),
    keys.parentSources(runId),
    keys.products(runId),
    keys.keyToId(runId),
    keys.idToKey(runId),
    keys.missing(runId),
    keys.missingUnsorted(runId),
    keys.sourceKeys(runId),
    keys.unsoldKeys(runId),
    keys.createdKeys(runId),
    keys.replaced(runId),
    keys.plan(runId),
    keys.planParents(runId),
    keys.deactivations(runId),
    keys.deactivationClaims(runId),
    keys.touched(runId),
    keys.producing(runId),
    keys.notified(runId, 'done'),
    keys.snapshotLock(runId),
    keys.activeRun(REF, 'source'),
    keys.idMapBucket(REF, 3),
    keys.idMapReverseBucket(REF, 3),
    keys.idMapBucket(REF, 3, '~name'),
    keys.idMapReverseBucket(REF, 3, '~name'),
    keys.idMapHome(REF),
    keys.idMapFields(REF),
    keys.pendingCreates(REF, '~name'),
    keys.deactivated(REF, '~name'),
    // A field's name is the user's: braces in it must not make a hash tag of their own.
    keys.idMapBucket(REF, 3, spaceOfField('{odd} field')),
    keys.oldIdMap(REF),
    keys.oldIdMapReverse(REF),
    keys.idMapMigration(REF),
    keys.pendingCreates(REF),
    keys.fullRead(REF),
    keys.deactivated(REF),
    keys.deactivatedProducts(REF),
    keys.pausedUntil(REF),
    keys.unreachable(REF),
    keys.learnedLimit(REF),
    keys.limitReset(REF),
    keys.limitResetBefore(REF),
    keys.acceptedRequests(REF),
    keys.authRejected(REF),
    keys.rejectedKeys(REF),
    keys.requestsUsed(REF, 0),
    keys.requestsAnswered(REF, 0),
    keys.fieldsSent(REF),
    keys.approvedLookalikes(REF),
    keys.seller(REF),
    keys.sellerRuns(REF),
    keys.sellerReading(REF),
    keys.behindEarlierRuns(REF),
    // BullMQ's keys of the seller's queue: `prefix:QUEUE:…`.
    `${keys.prefix}:${keys.sellerQueue(REF)}:wait`,
  ];
}

describe('RedisKeys without a cluster', () => {
  it('keeps the names existing deployments hold, byte for byte (a renamed id map would be lost)', () => {
    const keys = new RedisKeys('cs');
    expect(keys.idMapBucket(REF, 3)).toBe(`cs:seller:${REF}:ids:3`);
    expect(keys.seller(REF)).toBe(`cs:seller:${REF}`);
    expect(keys.run(RUN)).toBe(`cs:run:${RUN}`);
    expect(keys.outcomes(RUN)).toBe(`cs:run:${RUN}:outcomes`);
    expect(keys.runs).toBe('cs:runs');
    expect(keys.sellers).toBe('cs:sellers');
    expect(keys.sellerAliases).toBe('cs:seller-aliases');
    expect(keys.writeProbe).toBe('cs:write-probe');
    expect(keys.sellerQueue(REF)).toBe(`sync-${REF}`);
    expect(keys.scheduledImportsQueue('scheduled-imports')).toBe('scheduled-imports');
    expect(keys.runIdSuffix(REF)).toBe('');
    expect(newRunId(Date.UTC(2026, 0, 1), keys.runIdSuffix(REF))).toMatch(/^20260101T000000-[0-9a-f]{6}$/);
    for (const key of sellerAndRunKeys(keys, RUN)) expect(key).not.toMatch(/[{}]/);
  });
});

describe('RedisKeys on a cluster', () => {
  const keys = new RedisKeys('cs', { cluster: true });
  const runId = newRunId(Date.UTC(2026, 0, 1), keys.runIdSuffix(REF));

  it('ends a run id in its seller ref', () => {
    expect(runId).toMatch(new RegExp(`^20260101T000000-[0-9a-f]{6}-${REF}$`));
  });

  it("puts every key of a seller and of its runs, its queue's too, in the seller's slot", () => {
    for (const key of sellerAndRunKeys(keys, runId)) expect([key, hashTag(key)]).toEqual([key, REF]);
    expect(keys.idMapBucket(REF, 3)).toBe(`cs:seller:{${REF}}:ids:3`);
    expect(keys.outcomes(runId)).toBe(`cs:run:${runId.slice(0, -REF.length)}{${REF}}:outcomes`);
  });

  it('puts the keys of no one seller under one global tag', () => {
    for (const key of [keys.runs, keys.sellers, keys.sellerAliases, keys.writeProbe]) {
      expect(hashTag(key)).toBe('global');
    }
    expect(hashTag(`cs:${keys.scheduledImportsQueue('scheduled-imports')}:wait`)).toBe('global');
  });

  it('tags a run id without a ref (not made on a cluster) whole', () => {
    expect(tagRunId(RUN)).toBe(`{${RUN}}`);
    expect(hashTag(keys.outcomes(RUN))).toBe(RUN);
    expect(tagRunId(`${RUN}-a-named-seller`)).toBe(`${RUN}-{a-named-seller}`);
  });
});

describe('a cluster read as one server (INFO of every master)', () => {
  const master = (memory: string, policy = 'noeviction', version = '7.0.15') =>
    parseServerInfo(`redis_version:${version}\r\nrole:master\r\n${memory}\r\nmaxmemory_policy:${policy}\r\n`);

  it('is the master with the least room, the oldest version, and evicting if any master evicts', () => {
    const info = clusterInfo([
      master('used_memory:100\r\nmaxmemory:1000'),
      master('used_memory:900\r\nmaxmemory:1000', 'allkeys-lru', '6.2.0'),
      master('used_memory:10\r\nmaxmemory:0'),
    ]);
    expect(info).toMatchObject({ usedMemory: 900, maxmemory: 1000, version: '6.2.0', policy: 'allkeys-lru' });
  });
});
