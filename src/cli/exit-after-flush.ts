/**
 * Ends the process with `code` once stdout and stderr have handed over what was written to them.
 * On Linux a pipe takes 64 KiB at a time: `process.exit` right after a large write (`status --list |
 * wc -l`, `report <id> | gzip`) drops the rest, which the reader never sees. The exit itself stays:
 * a handle left behind (a Redis reconnect timer after Redis went away) must not keep a cron job
 * hanging. A reader that stops early is handled where the streams are (bin/catalog-sync.js, EPIPE).
 */
export async function exitAfterFlush(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map(flushed));
  process.exit(code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  // Written in order: the callback of an empty write comes once everything before it has left.
  return new Promise((resolve) => stream.write('', () => resolve()));
}
