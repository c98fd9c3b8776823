/**
 * The worker's lock on the chunk ran out while it ran it (queue/chunk-hold.ts): the request is not
 * sent, nor is any other of the chunk's, and no row's outcome is recorded for it: the chunk was (or
 * is about to be) handed out again, and its rows not settled are the next holder's. Not a failure
 * of the row or of the chunk.
 */
export class ChunkLockLostError extends Error {
  override name = 'ChunkLockLostError';

  constructor(jobId: string) {
    super(`chunk ${jobId}: its job lock ran out while it ran; its rows left are the next holder's`);
  }
}
