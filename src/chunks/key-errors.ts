/** The worker cannot serve a run: its key variable is unset or holds another seller's key. */
export class KeyUnavailableError extends Error {
  override name = 'KeyUnavailableError';
}

/**
 * Every key this process holds for the run's seller is one the API rejected (401) and no ping has
 * found accepted since: nothing is sent with it (rejected-keys.ts). Handled as KeyUnavailableError.
 */
export class KeyRejectedError extends KeyUnavailableError {
  override name = 'KeyRejectedError';
}

/**
 * The worker will not serve a run: the key variable or the base URL recorded in Redis is one this
 * worker's environment does not allow. Handled as KeyUnavailableError: logged, not served, nothing sent.
 */
export class RunNotAllowedError extends KeyUnavailableError {
  override name = 'RunNotAllowedError';
}
