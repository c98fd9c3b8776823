/**
 * The variable a run's key was read from holds another key now (a keys file read again): the
 * request is not sent, nor is any other of the chunk, and no row's outcome is recorded for it: the
 * chunk goes back to its queue, to be taken again with the key as it is now (a run's context is
 * built again: chunks/run-context.ts). Not a failure of the row or of the chunk.
 */
export class KeyChangedError extends Error {
  override name = 'KeyChangedError';
}
