import { Cluster } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchedCluster } from '../../../src/redis/watched-cluster.js';

/** A cluster client that never connects (lazyConnect, nothing sent): its logic only. */
function idleCluster(rideOutMs: number): WatchedCluster {
  const cluster = new WatchedCluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true });
  cluster.rideOutMs = rideOutMs;
  return cluster;
}

/** How ioredis's handleError ends for one command met by `errors`: tried again, or given up. */
function redirections(cluster: WatchedCluster) {
  const ttl = {};
  const said: string[] = [];
  const handlers = {
    moved: () => said.push('retry'),
    ask: () => said.push('retry'),
    tryagain: () => said.push('retry'),
    clusterDown: () => said.push('retry'),
    connectionClosed: () => said.push('retry'),
    maxRedirections: () => said.push('gave up'),
    defaults: () => said.push('failed'),
  };
  return {
    meet: (message: string, times: number) => {
      for (let i = 0; i < times; i++) cluster.handleError(new Error(message), ttl, handlers);
    },
    gaveUp: () => said.includes('gave up'),
  };
}

describe('WatchedCluster: a command through a failover', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('is tried again for as long as rideOutMs, not for ioredis’s 16 tries, then given up', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const cluster = idleCluster(20_000);
    const command = redirections(cluster);

    // CLUSTERDOWN: ioredis delays each try (retryDelayOnClusterDown); a failover's errors are retried so.
    command.meet('CLUSTERDOWN The cluster is down', 100);
    expect(command.gaveUp()).toBe(false);

    vi.setSystemTime(Date.now() + 20_000);
    command.meet('CLUSTERDOWN The cluster is down', 17);
    expect(command.gaveUp()).toBe(true);
    cluster.disconnect();
  });

  it('still gives up a loop of MOVED (tried again at once) after ioredis’s 16 tries', () => {
    const cluster = idleCluster(20_000);
    const command = redirections(cluster);
    command.meet('MOVED 9872 127.0.0.1:7001', 17);
    expect(command.gaveUp()).toBe(true);
    cluster.disconnect();
  });

  it('without rideOutMs: ioredis’s 16 tries', () => {
    const cluster = idleCluster(0);
    const command = redirections(cluster);
    command.meet('CLUSTERDOWN The cluster is down', 17);
    expect(command.gaveUp()).toBe(true);
    cluster.disconnect();
  });
});

describe('WatchedCluster: a command met by a slot on the move (TRYAGAIN)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is tried again as long as the move lasts, past rideOutMs, with a backoff of at most a second', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const cluster = idleCluster(20_000);
    const tries: number[] = [];
    const ttl = {};
    const start = Date.now();
    const handlers = {
      tryagain: () => tries.push(Date.now() - start),
      maxRedirections: () => tries.push(-1),
    };
    for (let i = 0; i < 40; i++) {
      cluster.handleError(
        new Error('TRYAGAIN Multiple keys request during rehashing of slot'),
        ttl,
        handlers,
      );
      await vi.advanceTimersByTimeAsync(1000);
    }
    // A MOVED on the way back from the random master ioredis tries it on counts, the TRYAGAIN after starts it over.
    cluster.handleError(new Error('MOVED 9872 127.0.0.1:7001'), ttl, { ...handlers, moved: () => {} });
    cluster.handleError(new Error('TRYAGAIN Multiple keys request during rehashing of slot'), ttl, handlers);
    await vi.advanceTimersByTimeAsync(1000);

    expect(tries).not.toContain(-1);
    expect(tries).toHaveLength(41);
    // 50, 100, 200, 400, 800 ms, then a second each.
    expect(tries.slice(0, 3)).toEqual([50, 1100, 2200]);
    expect(tries[10]).toBe(11_000);
    cluster.disconnect();
  });
});

describe('WatchedCluster.connect', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // ioredis's connect() left pending for good: its ready check met `cluster_state:fail` and it
  // connected again (a master died as it connected).
  const orphaned = () => vi.spyOn(Cluster.prototype, 'connect').mockReturnValue(new Promise(() => {}));

  it('resolves when the cluster gets ready by a later attempt', async () => {
    const connect = orphaned();
    const cluster = idleCluster(0);
    const connecting = cluster.connect();
    expect(connect).toHaveBeenCalledOnce();
    cluster.emit('ready');
    await expect(connecting).resolves.toBeUndefined();
    expect(cluster.listenerCount('ready')).toBe(0);
  });

  it('rejects when the cluster ends (no more attempts)', async () => {
    orphaned();
    const cluster = idleCluster(0);
    const connecting = cluster.connect();
    cluster.emit('end');
    await expect(connecting).rejects.toThrow('Connection is closed.');
    expect(cluster.listenerCount('end')).toBe(0);
  });

  it('shares one wait among the attempts made before it ends', () => {
    orphaned();
    const cluster = idleCluster(0);
    for (let i = 0; i < 20; i++) cluster.connect().catch(() => undefined);
    expect(cluster.listenerCount('ready')).toBe(1);
    cluster.emit('end');
  });
});

describe('WatchedCluster.duplicate (BullMQ’s connections)', () => {
  it('is a WatchedCluster that rides out a failover as long', () => {
    const cluster = idleCluster(7000);
    const copy = cluster.duplicate([], { redisOptions: { connectionName: 'bull' } });
    expect(copy).toBeInstanceOf(WatchedCluster);
    expect(copy.rideOutMs).toBe(7000);
    expect(copy.options.redisOptions).toMatchObject({ connectionName: 'bull' });
    expect(copy.options.lazyConnect).toBe(true);
    copy.disconnect();
    cluster.disconnect();
  });
});
