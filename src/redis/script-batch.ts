import type { Redis } from 'ioredis';
import { defineScripts, type LuaScript, queueScript, runScript } from './scripts.js';

type ScriptArg = string | number;

interface Call {
  script: LuaScript;
  args: ScriptArg[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Script calls asked for in one turn of the event loop go to Redis as one pipeline: one write and
 * one round trip instead of one each (issue 12, "work per row"). A chunk starts all its rows at
 * once, and each row about to be created claims its key (create-claims.ts): 100 claims, one write.
 *
 * Each script still runs atomically on its own; the pipeline only shares the trip. A call's answer
 * or error is its own, as if it had been sent alone. The batch is sent on `process.nextTick` of the
 * first call: calls reached through promise continuations of the same turn (rows that awaited an
 * already settled promise) run before it, and no timer is involved (fake timers in tests do not
 * hold it back).
 */
export class ScriptBatch {
  private pending: Call[] = [];

  constructor(private readonly redis: Redis) {}

  run(script: LuaScript, ...args: ScriptArg[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.pending.length === 0) process.nextTick(() => this.send());
      this.pending.push({ script, args, resolve, reject });
    });
  }

  private send(): void {
    const calls = this.pending;
    this.pending = [];
    const [only] = calls;
    if (calls.length === 1 && only) {
      runScript(this.redis, only.script, ...only.args).then(only.resolve, only.reject);
      return;
    }
    // Defined on the client before the pipeline is made, so the pipeline sends them by SHA1.
    defineScripts(this.redis, ...new Set(calls.map((call) => call.script)));
    const pipeline = this.redis.pipeline();
    for (const call of calls) queueScript(pipeline, call.script, ...call.args);
    pipeline.exec().then(
      (answers) => {
        calls.forEach((call, i) => {
          const [error, value] = answers?.[i] ?? [new Error('Redis gave no answer to a pipelined script')];
          if (error) call.reject(error);
          else call.resolve(value);
        });
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error);
      },
    );
  }
}
