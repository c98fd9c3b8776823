/**
 * A password on the command line (`worker --redis-url rediss://USER:PASSWORD@…`, a feed's
 * `https://user:PASSWORD@…`) is in /proc/<pid>/cmdline, which any user of the machine reads (`ps`),
 * for as long as the process lives: a worker's, for weeks. Node's `process.title` writes over the
 * memory that held argv (libuv: the whole of it, the rest zeroed), which is what ps then shows: set
 * here to the command line with its passwords masked. Loaded by the launcher right after
 * heap-growth.ts, before the CLI's modules, so the password shows for the first few milliseconds
 * only; REDIS_URL and REDIS_CLUSTER keep it out of ps altogether (docs/redis.md).
 */

/** A URL's password: what follows `scheme://user:` up to the `@`. */
const URL_PASSWORD = /(\b[a-z][a-z\d+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@/gi;

/** The command line with every URL's password as `***`; null when it holds none (the title is left alone). */
export function maskedCommandLine(argv: readonly string[]): string | null {
  const masked = argv.map((arg) => arg.replace(URL_PASSWORD, '$1***@'));
  return masked.some((arg, index) => arg !== argv[index]) ? masked.join(' ') : null;
}

// argv0: the command as typed (`node`), as ps showed it before.
const title = maskedCommandLine([process.argv0, ...process.argv.slice(1)]);
if (title !== null) process.title = title;
