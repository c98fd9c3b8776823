import { plainHttpHost } from '../seller-api/index.js';

/**
 * Why a run whose base URL is `http://` to a host that is not loopback is not served by this
 * process, or null. The run's record says `allowInsecure`, but it was read from Redis, which is not
 * trusted (docs/security.md): only this process's own `--allow-insecure` lets its key travel in
 * clear. `command`: the command these workers serve in-process (WorkerDeps.command); absent, a worker.
 */
export function insecureRunRefusal(
  baseUrl: string,
  own: { allowInsecure: boolean; command?: 'run' | 'approve' },
): string | null {
  const host = own.allowInsecure ? null : plainHttpHost(baseUrl);
  if (host === null) return null;
  const lift = own.command
    ? `give \`${own.command}\` --allow-insecure`
    : 'start it with `worker --allow-insecure`';
  return (
    `its base URL is plain http:// to host ${host}, not loopback, which would send the key unencrypted, ` +
    `and this process was not told it may (its record in Redis does not decide it): ${lift}, or use https://`
  );
}
