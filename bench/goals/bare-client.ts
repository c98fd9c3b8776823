import { Agent, request } from 'node:http';
import type { CatalogRow } from '../sync/catalog.js';

/**
 * The floor under goal 1: the same creates sent by a bare `node:http` client (keep-alive, `concurrency`
 * requests in flight, no file, no queue, no Redis, no diff) to a double like the one the CLI runs
 * against. Whatever this takes over N·L/C is the double's and the loopback's, not ours; measured in
 * the same run as the CLI, so that a loaded machine moves both. Returns the wall time in seconds.
 */
export async function bareClientSeconds(
  baseUrl: string,
  key: string,
  rows: readonly CatalogRow[],
  concurrency: number,
): Promise<number> {
  const target = new URL(`${baseUrl.replace(/\/$/, '')}/products`);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const create = (row: CatalogRow) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        sku: row.sku,
        name: row.name,
        price: Number(row.price),
        stock: row.quantity,
        description: row.description,
      });
      const sent = request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (answer) => {
          answer.resume();
          answer.on('end', () =>
            answer.statusCode === 201
              ? resolve()
              : reject(new Error(`bare client: POST answered ${answer.statusCode}`)),
          );
        },
      );
      sent.on('error', reject);
      sent.end(body);
    });
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let row = rows[next++]; row !== undefined; row = rows[next++]) await create(row);
      }),
    );
    return (performance.now() - started) / 1000;
  } finally {
    agent.destroy();
  }
}
