/**
 * CPU per Seller API request of the client: `fetch` (undici) against the node:http requester
 * (issue 12). The sandbox runs in a child process, so only the client's CPU is counted here; the
 * two clients take turns in rounds of the same requests, at the same concurrency, in one run, and
 * the figure to read is their ratio (wall-clock timings on a shared machine are noise).
 *
 *   npm run build && node dist/bench/http-client.js [requests] [concurrency]
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../src/sandbox/index.js';
import { SellerApiClient } from '../src/seller-api/index.js';

const ROUNDS = 5;

async function serve(): Promise<void> {
  const sandbox = await startSandbox({ keys: [{ key: 'bench-key', seller: 'bench' }] });
  console.log(JSON.stringify({ baseUrl: sandbox.baseUrl, key: sandbox.defaultKey.key }));
}

async function startChildSandbox() {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  return { ...(JSON.parse(line) as { baseUrl: string; key: string }), stop: () => child.kill() };
}

/** `count` requests, `concurrency` at a time: a product read, as a run's lookups are. */
async function send(client: SellerApiClient, id: string, count: number, concurrency: number) {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      next += 1;
      await client.getProduct(id);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

async function main(): Promise<void> {
  const requests = Number(process.argv[2] ?? 5_000);
  const concurrency = Number(process.argv[3] ?? 16);
  const api = await startChildSandbox();
  try {
    const clients = {
      fetch: new SellerApiClient({ baseUrl: api.baseUrl, apiKey: api.key, fetch: globalThis.fetch }),
      'node:http': new SellerApiClient({ baseUrl: api.baseUrl, apiKey: api.key }),
    };
    const created = await clients['node:http'].createProduct({
      name: 'Bench mug',
      sku: 'BENCH-1',
      price: 9.5,
    });
    const id = created.id as string;
    const cpuMicros: Record<string, number> = { fetch: 0, 'node:http': 0 };
    for (const client of Object.values(clients)) await send(client, id, 500, concurrency); // warm-up
    const perRound = Math.ceil(requests / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, client] of Object.entries(clients)) {
        const before = process.cpuUsage();
        await send(client, id, perRound, concurrency);
        const used = process.cpuUsage(before);
        cpuMicros[name] = (cpuMicros[name] ?? 0) + used.user + used.system;
      }
    }
    const total = perRound * ROUNDS;
    const fetchPer = (cpuMicros.fetch ?? 0) / total;
    const httpPer = (cpuMicros['node:http'] ?? 0) / total;
    console.log(
      `${total} GET /products?id=… per client, ${concurrency} at a time, sandbox in a child process`,
    );
    console.log(`fetch (undici):    ${fetchPer.toFixed(0)} µs CPU per request`);
    console.log(`node:http (keep-alive): ${httpPer.toFixed(0)} µs CPU per request`);
    console.log(`ratio node:http / fetch: ${(httpPer / fetchPer).toFixed(2)}`);
  } finally {
    api.stop();
  }
}

if (process.argv[2] === 'serve') await serve();
else await main();
