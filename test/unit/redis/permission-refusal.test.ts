import { describe, expect, it } from 'vitest';
import { redisFaultLine } from '../../../src/cli/redis-room.js';
import { faultOf, RedisHealth } from '../../../src/redis/health.js';
import {
  isNeededPermissionRefusal,
  permissionRefusalLine,
  permissionRefusalOf,
} from '../../../src/redis/permission-refusal.js';

const context = {
  at: 'redis://csuser:***@redis-a.example.test:6379',
  user: 'csuser',
  prefix: 'shop-1',
  next: 'then run the command again',
};

/** ioredis's error for a refused command: Redis's answer as its message. */
const replyError = (message: string) => Object.assign(new Error(message), { name: 'ReplyError' });

describe('a Redis ACL user refused a permission', () => {
  it('reads the command refused, in the words of Redis 7.0 and of 7.2 on', () => {
    expect(permissionRefusalOf("NOPERM this user has no permissions to run the 'eval' command")).toEqual({
      lacks: 'command',
      command: 'eval',
    });
    expect(permissionRefusalOf("NOPERM User csuser has no permissions to run the 'evalsha' command")).toEqual(
      {
        lacks: 'command',
        command: 'evalsha',
      },
    );
    // A command that is itself called `keys` is a command refused, not keys.
    expect(permissionRefusalOf("NOPERM this user has no permissions to run the 'keys' command")).toEqual({
      lacks: 'command',
      command: 'keys',
    });
  });

  it('reads keys refused, also from inside a script', () => {
    for (const said of [
      'NOPERM this user has no permissions to access one of the keys used as arguments',
      'NOPERM No permissions to access a key',
      "ERR The user executing the script can't access at least one of the keys mentioned in the command arguments script: 40b36b8e, on @user_script:1.",
    ]) {
      expect(permissionRefusalOf(said), said).toEqual({ lacks: 'keys', command: null });
    }
    expect(
      permissionRefusalOf(
        "ERR The user executing the script can't run this command or subcommand script: 0602318a, on @user_script:1.",
      ),
    ).toEqual({ lacks: 'command', command: null });
    expect(permissionRefusalOf('OOM command not allowed when used memory > maxmemory')).toBeNull();
  });

  it('names what to grant: +@scripting for a script, the key pattern of the prefix, the command', () => {
    expect(
      permissionRefusalLine("NOPERM this user has no permissions to run the 'eval' command", context),
    ).toBe(
      "Redis at redis://csuser:***@redis-a.example.test:6379 refused user csuser a command catalog-sync needs (NOPERM this user has no permissions to run the 'eval' command): grant it with ACL SETUSER csuser +@scripting (its queue and its own steps are Lua scripts); then run the command again",
    );
    expect(permissionRefusalLine('NOPERM No permissions to access a key', context)).toBe(
      'Redis at redis://csuser:***@redis-a.example.test:6379 refused user csuser the keys of catalog-sync (NOPERM No permissions to access a key): they all start with shop-1: (CATALOG_SYNC_PREFIX); grant them with ACL SETUSER csuser ~shop-1:*, or set CATALOG_SYNC_PREFIX to a prefix its key patterns cover; then run the command again',
    );
    expect(
      permissionRefusalLine("NOPERM this user has no permissions to run 'hset' command", context),
    ).toContain('grant it with ACL SETUSER csuser +hset;');
  });

  it("is a Redis fault that stops the tool's writes, but not for the extras the clients go on without", () => {
    expect(faultOf(replyError("NOPERM this user has no permissions to run the 'evalsha' command"))).toBe(
      'denied',
    );
    // Refused inside MULTI: EXECABORT carries the refusal.
    const aborted = Object.assign(replyError('EXECABORT Transaction discarded because of previous errors.'), {
      previousErrors: [
        replyError('NOPERM this user has no permissions to access one of the keys used as arguments'),
      ],
    });
    expect(faultOf(aborted)).toBe('denied');
    // ioredis's CLIENT SETNAME/SETINFO at each connect, BullMQ's CLIENT LIST, INFO: all go on refused.
    for (const extra of ['info', 'client|setinfo', 'client|setname', 'client|list']) {
      const said = `NOPERM this user has no permissions to run the '${extra}' command`;
      expect(isNeededPermissionRefusal(said), extra).toBe(false);
      expect(faultOf(replyError(said)), extra).toBeNull();
    }
  });

  it('ends a command in one line naming the user of REDIS_URL, its password masked', async () => {
    const health = new RedisHealth();
    const fault = health.note(replyError("NOPERM this user has no permissions to run the 'eval' command"));
    if (!fault) throw new Error('no fault noted');
    expect(health.fault).toBe(fault);
    const runtime = {
      config: {
        redisUrl: 'redis://csuser:pw-Zq8@redis-a.example.test:6379',
        redisDeadlineMs: 20_000,
        prefix: 'shop-1',
        redisCluster: null,
      },
      serverInfo: async () => null,
    };
    const line = await redisFaultLine(runtime, fault, null);
    expect(line).toMatch(
      /^Redis at redis:\/\/csuser:\*\*\*@redis-a\.example\.test:6379 refused user csuser /,
    );
    expect(line).toContain('ACL SETUSER csuser +@scripting');
    expect(line).toMatch(/then run the command again \(the rows already queued stay queued\)$/);
    expect(line).not.toContain('pw-Zq8');
    // No user named: Redis's `default` user (requirepass).
    const unnamed = {
      ...runtime,
      config: { ...runtime.config, redisUrl: 'redis://:pw-Zq8@redis-a.example.test:6379' },
    };
    expect(await redisFaultLine(unnamed, fault, null)).toContain('ACL SETUSER default +@scripting');
  });
});
