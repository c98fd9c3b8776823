import type { Redis } from 'ioredis';

/**
 * Whether the Redis user may run INFO. A managed service's application user is often `+@all
 * -@dangerous`, and INFO is in @dangerous. Only checks ask INFO: ioredis' ready check (at every
 * connection: with INFO refused it printed a warning each time, ten lines for a `status`), BullMQ's
 * version check (refused, a queue never became ready: `run` hung for good), and the tool's own
 * role, eviction and room checks (server-info.ts: skipped when INFO is refused). So INFO is asked
 * once, at connect, and what needs it is turned off when it is refused.
 */
export type InfoAccess = 'granted' | 'refused';

const refusedOn = new WeakSet<object>();

/**
 * INFO persistence on one connection (made with `enableReadyCheck: false`): 'refused' on NOPERM;
 * else 'granted', once the server has loaded its data (what ioredis' ready check waited for: while
 * loading, Redis refuses every command but a few, INFO among the few). Other errors are thrown.
 */
export async function infoAccessOf(node: Redis): Promise<InfoAccess> {
  for (;;) {
    let info: string;
    try {
      info = await node.info('persistence');
    } catch (error) {
      if (/^NOPERM\b/.test(error instanceof Error ? error.message : String(error))) return 'refused';
      throw error;
    }
    if (!/^loading:1\b/m.test(info)) return 'granted';
    const etaSeconds = Number(/^loading_eta_seconds:(\d+)/m.exec(info)?.[1] ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(100, etaSeconds * 1000))));
  }
}

/**
 * Sets the options every later connection is made with (the client's reconnects, BullMQ's
 * duplicates, a cluster's nodes): the ready check on when INFO is granted (a Redis restarted
 * mid-run is waited for while it loads), BullMQ's version check off when it is refused.
 */
export function applyInfoAccess(options: object, access: InfoAccess): void {
  const settable = options as { enableReadyCheck?: boolean; skipVersionCheck?: boolean };
  if (access === 'granted') settable.enableReadyCheck = true;
  else settable.skipVersionCheck = true;
}

/** Remembers that `client`'s user may not run INFO (said once by a command that writes: runtime.ts). */
export function noteInfoRefused(client: object): void {
  refusedOn.add(client);
}

export function infoRefused(client: object): boolean {
  return refusedOn.has(client);
}

/**
 * The log line of a command that writes, once: the checks that read INFO (server-info.ts) are
 * skipped, which a user of such a Redis should know rather than believe them made.
 */
export function infoRefusedLine(at: string): string {
  return `Redis at ${at} lets this user run no INFO: whether it is a primary, its eviction policy and the room left are not checked; grant the user +info to have them checked`;
}
