import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSandbox } from '../../../src/cli/commands/sandbox.js';
import type { CliIo } from '../../../src/cli/program.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { usePipeline } from '../support/pipeline.js';
import { runStore } from './store-cli.js';

/** `catalog-sync sandbox …args` in this process; `stop` ends it as Ctrl-C would. */
function sandboxCommand(args: string[]) {
  const stdout = new PassThrough();
  let printed = '';
  stdout.on('data', (chunk) => (printed += chunk));
  const io: CliIo = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {}, exitCode: 0 };
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const program = new Command('catalog-sync').exitOverride();
  registerSandbox(program, io, () => stopped);
  const running = program.parseAsync(['node', 'catalog-sync', 'sandbox', ...args]);
  return { running, stop, printed: () => printed };
}

async function untilPrinted(printed: () => string, text: string): Promise<string> {
  while (!printed().includes(text)) await new Promise((resolve) => setTimeout(resolve, 5));
  return printed();
}

/** The `NAME=value` lines printed, and the source of the `# then:` line. */
function pasted(text: string): { env: NodeJS.ProcessEnv; source: string } {
  const env: NodeJS.ProcessEnv = {};
  for (const match of text.matchAll(/^([A-Z_]+)=(\S+)$/gm)) env[match[1]!] = match[2]!;
  const source = /^# then: catalog-sync run (\S+) --sandbox$/m.exec(text)?.[1];
  if (!source) throw new Error(`no source printed: ${text}`);
  return { env, source };
}

describe('catalog-sync sandbox --as shopify|woocommerce', () => {
  const pipeline = usePipeline();

  it.each([
    ['shopify', 'SHOPIFY_ACCESS_TOKEN=', 5],
    ['woocommerce', 'WOO_CONSUMER_SECRET=', 8],
  ] as const)(
    '--as %s serves the store double with sample products, and prints what a run needs',
    async (name, line, products) => {
      const command = sandboxCommand(['--as', name, '--port', '0']);
      try {
        const { env, source } = pasted(await untilPrinted(command.printed, line));
        expect(source).toMatch(new RegExp(`^${name}\\+http://127\\.0\\.0\\.1:\\d+`));

        const migrated = await runStore(pipeline, source, [], env);

        expect(migrated.result.stderr).toBe('');
        expect(migrated.result.code).toBe(0);
        expect(pipeline.products()).toHaveLength(products);
        // The double answers the store's currency too: the sample store's prices go out in it.
        expect(migrated.result.stdout).toContain("prices in USD (the store's currency)");
        expect(pipeline.products().every((product) => product.currency === 'USD')).toBe(true);
      } finally {
        command.stop();
        await command.running;
      }
    },
  );

  it.each([
    [['--as', 'magento'], '--as: magento is not one of shopify, woocommerce'],
    [
      ['--as', 'shopify', '--daily-limit', '5'],
      '--as shopify serves a store double: --daily-limit is an option of the Seller API sandbox',
    ],
  ])('%j is refused in one line', async (args, message) => {
    const command = sandboxCommand(args);
    await expect(command.running).rejects.toThrow(new UsageError(message));
  });
});
