// Loaded first by the launcher, before the CLI's modules: SIGINT or SIGTERM while nothing of the
// command listens (its modules loading, its options read, a command that waits on nothing of its
// own) ends the process as Node's default would, exit 130/143, but with a line for cron's mail,
// where the default left none. A command that listens (run, import, approve, worker, sandbox)
// handles the signal itself: with a listener of its own beside this one, this one does nothing.
for (const [name, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(name, () => {
    if (process.listenerCount(name) > 1) return;
    process.stderr.write(`catalog-sync: interrupted (${name})\n`);
    process.exit(code);
  });
}
