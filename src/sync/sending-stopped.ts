/**
 * The command serving the run in this process was interrupted (Ctrl-C on `approve`): no request of
 * it leaves any more. The requests already sent finish and their rows settle; the rows not sent get
 * no outcome, and their chunk goes back to its queue unspent, for a `worker` or the next `approve`.
 * Not a failure of the row or of the chunk. Stopping the sending rather than letting the chunk run
 * to its end keeps the closing short: a close cut off by its deadline left writes answered and not
 * recorded, which the next `approve` sent again.
 */
export class SendingStoppedError extends Error {
  override name = 'SendingStoppedError';
}
