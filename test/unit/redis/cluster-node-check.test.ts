import { describe, expect, it } from 'vitest';
import { ClusterNodeError, clusterValueFor } from '../../../src/redis/cluster-node-check.js';
import { describeConnectFailure } from '../../../src/redis/connect.js';
import { checkRedisUrl } from '../../../src/redis/redis-url.js';

describe('a Redis URL that names a node of a Redis Cluster', () => {
  const node = new ClusterNodeError('cluster_state:ok');

  it('says so in one line, pointing at REDIS_CLUSTER in the form the URL would take there', () => {
    expect(describeConnectFailure('redis://redis-a.example.test:7000', node, { from: 'REDIS_URL' })).toBe(
      "REDIS_URL names Redis at redis://redis-a.example.test:7000, a node of a Redis Cluster (cluster_state:ok): a cluster's keys live on all its masters; name its nodes in REDIS_CLUSTER instead (REDIS_CLUSTER=redis-a.example.test:7000,…)",
    );
  });

  it('from --redis-url, which goes before REDIS_CLUSTER: to be left out too; the password never shown', () => {
    const line = describeConnectFailure('rediss://app:s3cret@redis-a.example.test:7000', node, {
      from: '--redis-url',
    });
    expect(line).toBe(
      "--redis-url names Redis at rediss://app:***@redis-a.example.test:7000, a node of a Redis Cluster (cluster_state:ok): a cluster's keys live on all its masters; name its nodes in REDIS_CLUSTER instead (REDIS_CLUSTER=rediss://USER:PASSWORD@redis-a.example.test:7000,…), and no --redis-url",
    );
    expect(line).not.toContain('s3cret');
  });

  it.each([
    ['redis://h:7000', 'h:7000,…'],
    ['redis://:pw@h:7000', 'redis://:PASSWORD@h:7000,…'],
    ['redis://app:pw@h:7000/0', 'redis://USER:PASSWORD@h:7000,…'],
    ['rediss://h:7000', 'rediss://h:7000,…'],
  ])('%s as REDIS_CLUSTER: %s', (url, value) => {
    expect(clusterValueFor(url)).toBe(value);
  });
});

describe('a Redis URL that lists several hosts (REDIS_CLUSTER form)', () => {
  it('is refused as naming one server, the scheme kept, the password not quoted', () => {
    expect(() => checkRedisUrl('rediss://app:s3cret@h1:7000,h2:7000', '--redis-url')).toThrow(
      "--redis-url lists several hosts, but it names one Redis server: name a Redis Cluster's nodes in REDIS_CLUSTER (rediss://USER:PASSWORD@host:port,host:port,…), and no --redis-url",
    );
    expect(() => checkRedisUrl('redis://h1:7000,h2:7000', 'REDIS_URL')).toThrow(
      "REDIS_URL lists several hosts, but it names one Redis server: name a Redis Cluster's nodes in REDIS_CLUSTER (redis://USER:PASSWORD@host:port,host:port,…)",
    );
  });

  it('a comma in the (unencoded) password is not a host list', () => {
    expect(() => checkRedisUrl('redis://:a,b@h1:7000', 'REDIS_URL')).not.toThrow();
  });
});
