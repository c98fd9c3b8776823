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

    // TRYAGAIN: ioredis delays each try (retryDelayOnTryAgain); a failover's errors are retried so.
    command.meet('TRYAGAIN Multiple keys request during rehashing of slot', 100);
    expect(command.gaveUp()).toBe(false);

    vi.setSystemTime(Date.now() + 20_000);
    command.meet('TRYAGAIN Multiple keys request during rehashing of slot', 17);
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
    command.meet('TRYAGAIN Multiple keys request during rehashing of slot', 17);
    expect(command.gaveUp()).toBe(true);
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
