import type { ChainableCommander, Redis } from 'ioredis';

/**
 * A Lua script of the tool, sent by its SHA1 (EVALSHA) and only once in full: ioredis'
 * `defineCommand` sends EVALSHA and falls back to EVAL when Redis answers NOSCRIPT (a restarted or
 * flushed Redis), and in a MULTI loads the script first. EVAL with the text each time sent the whole
 * script with every row (issue 12).
 */
export interface LuaScript {
  /** The command's name on the client; unique per script. */
  readonly name: string;
  readonly lua: string;
  /** How many of its arguments are keys; VARIABLE_KEYS: told with each call (runScriptWithKeys). */
  readonly keys: number;
}

/** A script whose number of keys varies from call to call. */
export const VARIABLE_KEYS = -1;

type ScriptArg = string | number;
type ScriptCommand = (...args: ScriptArg[]) => Promise<unknown>;

export function luaScript(name: string, keys: number, lua: string): LuaScript {
  return { name: `catalogSync_${name}`, lua, keys };
}

/** Defines the scripts on `redis` (once per client); a MULTI made after it can queue them. */
export function defineScripts(redis: Redis, ...scripts: LuaScript[]): void {
  for (const script of scripts) {
    if (typeof (redis as unknown as Record<string, unknown>)[script.name] === 'function') continue;
    const numberOfKeys = script.keys === VARIABLE_KEYS ? {} : { numberOfKeys: script.keys };
    redis.defineCommand(script.name, { ...numberOfKeys, lua: script.lua });
  }
}

/** Runs `script` with its keys, then its arguments. */
export function runScript(redis: Redis, script: LuaScript, ...args: ScriptArg[]): Promise<unknown> {
  defineScripts(redis, script);
  return (redis as unknown as Record<string, ScriptCommand>)[script.name]?.(...args) as Promise<unknown>;
}

/** Runs a script of VARIABLE_KEYS with `keys`, then `args`. */
export function runScriptWithKeys(
  redis: Redis,
  script: LuaScript,
  keys: readonly ScriptArg[],
  args: readonly ScriptArg[],
): Promise<unknown> {
  return runScript(redis, script, keys.length, ...keys, ...args);
}

/**
 * Queues `script` in a MULTI or pipeline: by SHA1 when it was defined on the client before the MULTI
 * was made (defineScripts), else with its text.
 */
export function queueScript(multi: ChainableCommander, script: LuaScript, ...args: ScriptArg[]): void {
  const queue = (multi as unknown as Record<string, (...a: ScriptArg[]) => unknown>)[script.name];
  if (typeof queue === 'function') queue.apply(multi, args);
  // A script of VARIABLE_KEYS has its number of keys as its first argument.
  else if (script.keys === VARIABLE_KEYS) multi.eval(script.lua, ...(args as [number, ...ScriptArg[]]));
  else multi.eval(script.lua, script.keys, ...args);
}
