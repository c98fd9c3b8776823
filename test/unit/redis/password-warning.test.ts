import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeUnneededPasswordWarning, unneededPasswordLine } from '../../../src/redis/password-warning.js';

describe("ioredis's warning of a password a Redis does not need", () => {
  const original = console.warn;
  afterEach(() => {
    console.warn = original;
  });

  it('reaches the tool once, however many connections say it; other warnings pass', () => {
    const passed = vi.fn();
    console.warn = passed;
    const tell = vi.fn();
    const unroute = routeUnneededPasswordWarning(tell);

    for (let connection = 0; connection < 3; connection++)
      console.warn(
        "[WARN] This Redis server's `default` user does not require a password, but a password was supplied",
      );
    console.warn('[WARN] Redis server does not require a password, but a password was supplied.');
    console.warn('something else');

    expect(tell).toHaveBeenCalledTimes(1);
    expect(passed.mock.calls).toEqual([['something else']]);
    unroute();
    expect(console.warn).toBe(passed);
  });

  it('names the Redis and where the password came from', () => {
    expect(unneededPasswordLine('redis://:***@127.0.0.1:6379', '--redis-url')).toBe(
      'Redis at redis://:***@127.0.0.1:6379 needs no password, but --redis-url gives one: whoever reaches it may read and write it without; set requirepass on it, or drop the password from --redis-url',
    );
  });
});
