import { untilText } from '../runs/summary.js';
import type { DailyLimitError } from '../seller-api/index.js';

/**
 * A 429 answered to a command that sends a request or pages and stops (`ping`, the exports): the
 * daily limit of a key the API took (an unknown key is a 401), so the key is valid, only spent. One
 * line for all of them, said with exit 4, as README's exit codes have it.
 */
export function spentLimitLine(
  api: { keyEnv: string; baseUrl: string },
  error: DailyLimitError,
  now = Date.now(),
): string {
  const until = untilText(error.resetAt.getTime(), now);
  return `the key in ${api.keyEnv} is valid for ${api.baseUrl}, but the seller's daily request limit is spent until ${until} (429)`;
}
