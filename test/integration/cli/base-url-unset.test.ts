import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runCli } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/** With SELLER_API_BASE_URL unset, each command says what it takes instead: `--sandbox` is `run`'s alone. */
describe('SELLER_API_BASE_URL not set', () => {
  const pipeline = usePipeline();

  const withoutBaseUrl = () => {
    const env = { ...pipeline.env };
    delete env.SELLER_API_BASE_URL;
    return env;
  };

  it('`run` names --base-url and --sandbox', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(2));

    const result = await runCli(['run', source], withoutBaseUrl());

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'catalog-sync: SELLER_API_BASE_URL is not set (or use --base-url, or --sandbox for a rehearsal)\n',
    );
  });

  it.each([[['import', 'SOURCE']], [['ping']], [['products', 'export']], [['orders', 'export']]])(
    '%j names --base-url only (it takes no --sandbox)',
    async (words) => {
      const source = await pipeline.csv('catalog.csv', catalogRows(2));

      const result = await runCli(
        words.map((word) => (word === 'SOURCE' ? source : word)),
        withoutBaseUrl(),
      );

      expect(result.code).toBe(2);
      expect(result.stderr).toBe('catalog-sync: SELLER_API_BASE_URL is not set (or use --base-url)\n');
      expect(pipeline.sandbox.stats().total).toBe(0);
    },
  );
});
