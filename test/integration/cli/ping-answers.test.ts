import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * A prober's finding: `ping` exited 2 ("usage or configuration error") when the API answered 429
 * (the daily limit spent: the key is valid) or 5xx. A 429 exits 4, as `run` does on the daily
 * limit, saying the key is valid and until when the limit is spent; a 5xx exits 6: the API
 * answered no verdict on the key, as when it is out of reach.
 */
describe('ping, when the API answers no 200 nor 401', () => {
  const pipeline = usePipeline();

  it('429 (daily limit spent): exit 4, one line saying the key is valid and until when the limit is spent', async () => {
    pipeline.sandbox.setFaults({ dailyLimit: 0 });

    const ping = await pipeline.cli(['ping']);

    expect(ping.code).toBe(ExitCode.pausedDailyLimit);
    expect(ping.stdout).toBe('');
    expect(ping.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^catalog-sync: the key in SELLER_API_KEY is valid for ${pipeline.sandbox.baseUrl.replace(/[.]/g, '\\.')}, ` +
            "but the seller's daily request limit is spent until (?:\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d UTC \\(in [^)]+\\) \\(429\\)$",
        ),
      ),
    ]);
  });

  it('5xx: exit 6, one line saying the API answers 500 so the key could not be checked', async () => {
    pipeline.sandbox.setFaults({ failRate: 1 });

    const ping = await pipeline.cli(['ping']);

    expect(ping.code).toBe(ExitCode.apiUnreachable);
    expect(ping.stderr.trim().split('\n')).toEqual([
      `catalog-sync: ${pipeline.sandbox.baseUrl} answers 500 (Internal Server Error): the key in SELLER_API_KEY could not be checked; try again later`,
    ]);
  });
});
