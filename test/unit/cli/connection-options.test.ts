import { describe, expect, it } from 'vitest';
import { runCli } from '../../integration/support/cli.js';

/** Every command that talks to the Seller API (the README's commands), as typed. */
const TALKING_TO_THE_API = [
  ['run'],
  ['import'],
  ['approve'],
  ['revert'],
  ['resume'],
  ['cancel'],
  ['ping'],
  ['products', 'export'],
  ['orders', 'export'],
];
const CONNECTION = ['--base-url <url>', '--keys-file <file>', '--key-env <name>', '--allow-insecure'];
/** The exports and ping read no Redis. */
const WITHOUT_REDIS = new Set(['ping', 'products export', 'orders export']);

describe('the connection options: one set, taken by every command that talks to the API', () => {
  it.each(TALKING_TO_THE_API.map((words) => [words.join(' '), words]))(
    '%s --help lists them',
    async (_, words) => {
      const help = await runCli([...words, '--help'], {});
      expect(help.code).toBe(0);
      const wanted = WITHOUT_REDIS.has(words.join(' ')) ? CONNECTION : [...CONNECTION, '--redis-url <url>'];
      for (const option of wanted) expect(help.stdout).toContain(`  ${option}`);
    },
  );

  it('a mistyped --base-url is one line naming the option, on a command that reads its URL from Redis', async () => {
    for (const words of [['approve', 'R1'], ['resume'], ['cancel', 'R1']]) {
      const result = await runCli([...words, '--base-url', 'ftp://api.example.com/api/v1'], {
        REDIS_URL: 'redis://127.0.0.1:1',
      });
      expect(result.code, words.join(' ')).toBe(2);
      expect(result.stderr, words.join(' ')).toMatch(/^catalog-sync: --base-url: invalid base URL .*\n$/);
    }
  });
});

describe('a Redis URL that is not one', () => {
  const line = (origin: string) =>
    `catalog-sync: ${origin} is not a valid Redis URL: it must look like redis://host:6379 (rediss:// for TLS)\n`;

  it.each([['status'], ['run', 'catalog.csv'], ['worker']])(
    '%s --redis-url: one line naming --redis-url, exit 2',
    async (...words) => {
      for (const url of ['redis://127.0.0.1:notaport', 'http://127.0.0.1:6379']) {
        const result = await runCli([...words, '--redis-url', url], { REDIS_URL: 'redis://127.0.0.1:1' });

        expect(result.code, url).toBe(2);
        expect(result.stderr, url).toBe(line('--redis-url'));
      }
    },
  );

  it('REDIS_URL: one line naming REDIS_URL, exit 2', async () => {
    const result = await runCli(['status'], { REDIS_URL: 'redis://127.0.0.1:notaport' });

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(line('REDIS_URL'));
  });

  it('REDIS_URL a slash short: the same line, not a database named after the host, and no password', async () => {
    const result = await runCli(['status'], { REDIS_URL: 'redis:/:s3cret@127.0.0.1:47201' });

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(line('REDIS_URL'));
  });
});
