// Loaded first by the launcher, before the CLI's modules: SIGINT or SIGTERM while nothing of the
// command listens (its modules loading, its options read, a command that waits on nothing of its
// own) ends the process as Node's default would, exit 130/143, but with a line for cron's mail,
// where the default left none. A command that listens (run, import, approve, worker, sandbox)
// handles the signal itself: with a listener of its own beside this one, this one does nothing.

// What a command that changes things has done before it listens: nothing. Its line says so, in the
// words it says it with itself once it listens (BEFORE_THE_RUN in signals.ts, BEFORE_THE_APPROVAL in
// approve.ts; the tests hold them equal): a bare `interrupted` left the seller to guess whether the
// approve they stopped in its first half second had approved anything.
const BEFORE = {
  run: 'before the run was created: no row was queued or sent',
  import: 'before the run was created: no row was queued or sent',
  approve: 'before the approval began: nothing was approved, queued or sent',
};

// The command, as main.ts finds it (commandsFor): the program takes no option with a value, so the
// first word not starting with `-` names it.
const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
let words = Object.hasOwn(BEFORE, command ?? '') ? BEFORE[command] : '';

for (const [name, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
]) {
  process.on(name, () => {
    if (process.listenerCount(name) > 1) return;
    process.stderr.write(`catalog-sync: interrupted (${name})${words ? ` ${words}` : ''}\n`);
    process.exit(code);
  });
}

// Once the command has listened for a signal itself, what it did from then on is its own to say:
// heard here again after it let go (its work done, the process closing), the line says no state.
process.on('newListener', (event) => {
  if (event === 'SIGINT' || event === 'SIGTERM') words = '';
});
