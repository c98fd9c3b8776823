import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SANDBOX_PORT } from '../../../src/defaults.js';

// A refused `--host` (0.0.0.0, a private address) must open nothing even if the check were wrong:
// servers and connections off loopback are refused here (hostile/network-guard.ts).
vi.mock('node:http', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedHttp(original),
);
vi.mock('node:net', async (original) =>
  (await import('../../hostile/network-guard.js')).guardedNet(original),
);

import {
  registerSandbox,
  type SandboxFlags,
  sandboxOptionsFromFlags,
} from '../../../src/cli/commands/sandbox.js';
import type { CliIo } from '../../../src/cli/program.js';
import { UsageError } from '../../../src/cli/usage-error.js';

describe('sandboxOptionsFromFlags', () => {
  it.each<[string, SandboxFlags, object]>([
    ['no flags', {}, { port: DEFAULT_SANDBOX_PORT }],
    ['--port 0', { port: '0' }, { port: 0 }],
    ['--host ::1', { host: '::1' }, { host: '::1' }],
    ['--key a=b', { key: ['a=b'] }, { keys: [{ key: 'a', seller: 'b' }] }],
    [
      '--key with = in the seller',
      { key: ['k=s=1', 'x=y'] },
      {
        keys: [
          { key: 'k', seller: 's=1' },
          { key: 'x', seller: 'y' },
        ],
      },
    ],
    ['--daily-limit 0', { dailyLimit: '0' }, { dailyLimit: 0 }],
    ['--day-length 30s', { dayLength: '30s' }, { dayLengthMs: 30_000 }],
    ['--day-length 24h', { dayLength: '24h' }, { dayLengthMs: 86_400_000 }],
    ['--day-length 500ms', { dayLength: '500ms' }, { dayLengthMs: 500 }],
    [
      '--reset-header x-ratelimit-reset',
      { resetHeader: 'x-ratelimit-reset' },
      { resetHeader: 'x-ratelimit-reset' },
    ],
    ['--latency 25', { latency: '25' }, { latencyMs: 25 }],
    ['--fail-rate 0.1', { failRate: '0.1' }, { failRate: 0.1 }],
    ['--drop-rate 1', { dropRate: '1' }, { dropResponseRate: 1 }],
    [
      '--accept-fields name, price,sku',
      { acceptFields: 'name, price,sku' },
      { acceptFields: ['name', 'price', 'sku'] },
    ],
    ['--hide-fields sku', { hideFields: 'sku' }, { hideFields: ['sku'] }],
    ['--normalize', { normalize: true }, { normalize: true }],
    ['--update-fields price, stock', { updateFields: 'price, stock' }, { updateFields: ['price', 'stock'] }],
    ['--ignore-on-update name', { ignoreOnUpdate: 'name' }, { ignoreOnUpdate: ['name'] }],
    ['--list-shape link-header', { listShape: 'link-header' }, { listShape: 'link-header' }],
    ['--page-size 2', { pageSize: '2' }, { pageSize: 2 }],
    ['--create-status 200', { createStatus: '200' }, { createStatus: 200 }],
    ['--no-create-body', { createBody: false }, { createBody: false }],
  ])('reads %s', (_case, flags, expected) => {
    expect(sandboxOptionsFromFlags(flags)).toMatchObject(expected);
  });

  it.each<[SandboxFlags, string]>([
    [{ port: 'abc' }, '--port'],
    [{ port: '70000' }, '--port'],
    [{ host: '0.0.0.0' }, '--host'],
    [{ host: '192.168.1.2' }, '--host'],
    [{ key: ['no-equals-sign'] }, '--key'],
    [{ key: ['=seller'] }, '--key'],
    [{ key: ['key='] }, '--key'],
    [{ dailyLimit: '-1' }, '--daily-limit'],
    [{ dailyLimit: '2.5' }, '--daily-limit'],
    [{ dayLength: 'tomorrow' }, '--day-length'],
    [{ dayLength: '0s' }, '--day-length'],
    [{ dayLength: '24' }, '--day-length'],
    [{ resetHeader: 'date' }, '--reset-header'],
    [{ latency: 'slow' }, '--latency'],
    [{ failRate: '1.5' }, '--fail-rate'],
    [{ dropRate: '-0.1' }, '--drop-rate'],
    [{ acceptFields: 'name,,price' }, '--accept-fields'],
    [{ updateFields: 'price,' }, '--update-fields'],
    [{ ignoreOnUpdate: ' ' }, '--ignore-on-update'],
    [{ listShape: 'xml' }, '--list-shape'],
    [{ pageSize: '0' }, '--page-size'],
    [{ createStatus: '202' }, '--create-status'],
  ])('refuses %o with a one-line UsageError naming %s', (flags, option) => {
    let error: unknown;
    try {
      sandboxOptionsFromFlags(flags);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message.startsWith(`${option}:`)).toBe(true);
    expect((error as UsageError).message).not.toContain('\n');
  });

  it('does not echo a malformed key back', () => {
    expect(() => sandboxOptionsFromFlags({ key: ['secret-without-seller'] })).toThrow(UsageError);
    expect(() => sandboxOptionsFromFlags({ key: ['secret-without-seller'] })).not.toThrow(/secret/);
  });
});

describe('catalog-sync sandbox', () => {
  function harness() {
    const stdout = new PassThrough();
    let printed = '';
    stdout.on('data', (chunk) => (printed += chunk));
    const io: CliIo = { stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {}, exitCode: 0 };
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const program = new Command('catalog-sync').exitOverride();
    registerSandbox(program, io, () => stopped);
    return { program, stop, printed: () => printed };
  }

  async function untilPrinted(printed: () => string): Promise<string> {
    while (!printed().includes('SELLER_API_KEY=')) await new Promise((resolve) => setTimeout(resolve, 5));
    return printed();
  }

  it('prints the base URL and key pairs ready to paste, serves with the flags given, and stops when told', async () => {
    const { program, stop, printed } = harness();
    const running = program.parseAsync([
      'node',
      'catalog-sync',
      'sandbox',
      '--port',
      '0',
      '--key',
      'key-a=alice',
      '--key',
      'key-b=bob',
      '--daily-limit',
      '5',
      '--list-shape',
      'bare',
    ]);
    const text = await untilPrinted(printed);
    const baseUrl = /^SELLER_API_BASE_URL=(http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m.exec(text)?.[1];
    expect(baseUrl).toBeDefined();
    expect(text).toMatch(/^SELLER_API_KEY=key-a {2}# seller alice$/m);
    expect(text).toMatch(/^# SELLER_API_KEY=key-b {2}# seller bob$/m);

    const response = await fetch(`${baseUrl}/products`, { headers: { Authorization: 'Bearer key-b' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('5');
    expect(await response.json()).toEqual([]);

    stop();
    await running;
    await expect(fetch(`${baseUrl}/ping`, { headers: { Authorization: 'Bearer key-a' } })).rejects.toThrow();
  });

  it('leaves normalize, update fields and ignored fields off without their flags', () => {
    const options = sandboxOptionsFromFlags({});
    expect(options).not.toHaveProperty('normalize');
    expect(options).not.toHaveProperty('updateFields');
    expect(options).not.toHaveProperty('ignoreOnUpdate');
  });

  it('reads --normalize, --update-fields and --ignore-on-update from the command line and serves with them', async () => {
    const { program, stop, printed } = harness();
    const running = program.parseAsync([
      'node',
      'catalog-sync',
      'sandbox',
      '--port',
      '0',
      '--key',
      'k=s',
      '--normalize',
      '--update-fields',
      'name,price',
      '--ignore-on-update',
      'price',
    ]);
    const text = await untilPrinted(printed);
    const baseUrl = /^SELLER_API_BASE_URL=(\S+)$/m.exec(text)?.[1];
    const send = async (method: string, path: string, body: object) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
    };
    try {
      const created = await send('POST', '/products', { name: ' Lamp ', price: 1.005, sku: 'L-1' });
      expect(created.body.data).toMatchObject({ name: 'Lamp', price: 1.01 });
      const id = created.body.data.id;
      expect((await send('PUT', `/products?id=${id}`, { sku: 'L-2' })).status).toBe(400);
      const updated = await send('PUT', `/products?id=${id}`, { name: 'Desk  lamp', price: 5 });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ name: 'Desk lamp', price: 1.01, sku: 'L-1' });
    } finally {
      stop();
      await running;
    }
  });

  it('prints a generated key when none is given', async () => {
    const { program, stop, printed } = harness();
    const running = program.parseAsync(['node', 'catalog-sync', 'sandbox', '--port', '0']);
    const text = await untilPrinted(printed);
    stop();
    await running;
    expect(text).toMatch(/^SELLER_API_KEY=sk_sandbox_[0-9a-f]{32} {2}# seller sandbox-seller$/m);
  });
});
