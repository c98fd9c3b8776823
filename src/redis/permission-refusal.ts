/**
 * A Redis ACL user refused something catalog-sync needs (a managed Redis's application user often
 * lacks scripting, or has key patterns for another application's keys). Redis says so in the answer
 * to the command itself (`NOPERM …`), or, for a command inside a Lua script, in the script's error
 * (`ERR The user executing the script can't …` in Redis 7.0, `ACL failure in script` later): both
 * are read here, into what the user lacks and what to grant, so that the command that meets it ends
 * with one line (health.ts, kind `denied`) rather than a stack trace.
 */

/** What the user was refused: a command (named when Redis names it), the tool's keys, or a channel. */
export interface PermissionRefusal {
  lacks: 'command' | 'keys' | 'channels';
  /** The command refused, as Redis names it (`eval`, `client|setname`); null when it does not. */
  command: string | null;
}

const REFUSAL = /\bNOPERM\b|user executing the script can't|ACL failure in script/i;

/** Whether Redis's answer `message` refuses the user a permission (any form above). */
export function isPermissionRefusal(message: string): boolean {
  return REFUSAL.test(message);
}

/**
 * The commands the client libraries send as extras and go on without when refused: ioredis' `CLIENT
 * SETNAME` and `CLIENT SETINFO` at each (re)connect, BullMQ's `CLIENT SETNAME`/`LIST`, and INFO
 * once known refused (info-access.ts). Their refusal is no permission the tool lacks.
 */
const EXTRAS = /^(info|client(\|.*)?)$/;

/** Whether `message` refuses a permission the tool needs: a refusal, not of an extra (EXTRAS). */
export function isNeededPermissionRefusal(message: string): boolean {
  const refusal = permissionRefusalOf(message);
  return refusal !== null && !(refusal.command !== null && EXTRAS.test(refusal.command));
}

/** What `message` says the user lacks; null when it is no permission refusal. */
export function permissionRefusalOf(message: string): PermissionRefusal | null {
  if (!isPermissionRefusal(message)) return null;
  // First: a command refused by name may itself be called `keys`.
  const named = /'([^']+)' command/.exec(message)?.[1];
  if (named) return { lacks: 'command', command: named.toLowerCase() };
  if (/\bkeys?\b/i.test(message)) return { lacks: 'keys', command: null };
  if (/\bchannels?\b/i.test(message)) return { lacks: 'channels', command: null };
  return { lacks: 'command', command: null };
}

/** The commands of scripts: BullMQ's queue and the tool's own atomic steps are Lua scripts. */
const SCRIPTING = /^(eval|evalsha|eval_ro|evalsha_ro|script(\|.*)?|fcall|fcall_ro|function(\|.*)?)$/;

/** Where the user and keys are, for the grant the line names. */
export interface RefusalContext {
  /** What the line calls the server: `Redis` unless told (`Redis Cluster` at connect, connect.ts). */
  server?: string;
  /** The URL as shown (password masked: displayRedisUrl). */
  at: string;
  /** The ACL user of REDIS_URL (or REDIS_CLUSTER); `default` when it names none. */
  user: string;
  /** CATALOG_SYNC_PREFIX: every key catalog-sync and BullMQ write starts with `<prefix>:`. */
  prefix: string;
  /** What the line ends with: how to go on once the user is granted what it lacks. */
  next: string;
}

/** The one line for a refusal: what the user lacks, the ACL SETUSER that grants it, how to go on. */
export function permissionRefusalLine(said: string, context: RefusalContext): string {
  const refusal = permissionRefusalOf(said) ?? { lacks: 'command', command: null };
  const { at, user, prefix, next } = context;
  const redis = context.server ?? 'Redis';
  const reason = said.replace(/\s+/g, ' ').trim().slice(0, 200);
  const setuser = (rule: string) => `ACL SETUSER ${user} ${rule}`;
  if (refusal.lacks === 'keys') {
    return (
      `${redis} at ${at} refused user ${user} the keys of catalog-sync (${reason}): they all start with ` +
      `${prefix}: (CATALOG_SYNC_PREFIX); grant them with ${setuser(`~${prefix}:*`)}, or set ` +
      `CATALOG_SYNC_PREFIX to a prefix its key patterns cover; ${next}`
    );
  }
  if (refusal.lacks === 'channels') {
    return `${redis} at ${at} refused user ${user} a channel (${reason}): grant it with ${setuser('&*')}; ${next}`;
  }
  const { command } = refusal;
  const grant =
    command === null
      ? `${setuser('+@all')} (every command on its keys; -@dangerous may stay)`
      : SCRIPTING.test(command)
        ? `${setuser('+@scripting')} (its queue and its own steps are Lua scripts)`
        : setuser(`+${command}`);
  return `${redis} at ${at} refused user ${user} a command catalog-sync needs (${reason}): grant it with ${grant}; ${next}`;
}
