import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { SourceRecord } from '../../src/interfaces.js';
import type { AnswerCaps } from '../../src/seller-api/answer-caps.js';
import { type OpenedSource, type OpenSourceOptions, openSource } from '../../src/sources/index.js';
import type { ConnectTarget, SourceNetwork } from '../../src/sources/url-connect.js';
import { type CliResult, runCli } from '../integration/support/cli.js';

/**
 * The network of these tests never leaves loopback, even when the code under test is wrong: host
 * names resolve through `lookup` below (to loopback, or to made-up addresses that only stand for
 * one), and the connector connects to 127.0.0.1 alone. Asked for an address it does not know, it
 * throws before any packet is sent.
 */
export interface LoopbackNetwork extends Required<SourceNetwork> {
  /** Every address the code asked to connect to, in order. */
  attempts: ConnectTarget[];
  /** How many times each host name was looked up. */
  lookups: Map<string, number>;
}

/**
 * `names`: host name → the address its lookup answers (one or several). `stands`: a made-up
 * address (public, private, link-local) → the loopback port that plays it.
 */
export function loopbackNetwork(
  names: Record<string, string | string[]>,
  stands: Record<string, number> = {},
): LoopbackNetwork {
  const attempts: ConnectTarget[] = [];
  const lookups = new Map<string, number>();
  return {
    attempts,
    lookups,
    async lookup(hostname) {
      lookups.set(hostname, (lookups.get(hostname) ?? 0) + 1);
      const answer = names[hostname];
      if (answer === undefined)
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [answer].flat().map((address) => ({ address, family: isIP(address) }));
    },
    async connect(target) {
      attempts.push(target);
      const port = stands[target.address] ?? (target.address === '127.0.0.1' ? target.port : undefined);
      if (port === undefined) {
        throw new Error(`test connector: refused to connect to ${target.address} (loopback only)`);
      }
      return new Promise((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
        socket.once('error', reject);
      });
    },
  };
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTP server on 127.0.0.1 with a route table; `close()` ends every connection. */
export async function loopbackServer(routes: Record<string, Route>): Promise<{
  port: number;
  base: string;
  requests: IncomingMessage[];
  close(): Promise<void>;
}> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else {
      res.writeHead(404, 'Not Found');
      res.end('nope');
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

export function redirect(location: string, status = 302): Route {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}

export function body(text: string | Buffer, headers: Record<string, string> = {}): Route {
  return (_req, res) => {
    res.writeHead(200, headers);
    res.end(text);
  };
}

export async function readAll(source: OpenedSource): Promise<SourceRecord[]> {
  const records: SourceRecord[] = [];
  for await (const record of source.records) records.push(record);
  return records;
}

/** Opens a source and reads every record; resolves to the records or the error it ended with. */
export async function readSource(
  source: string,
  options?: OpenSourceOptions,
): Promise<{ records: SourceRecord[]; opened: OpenedSource } | { error: Error }> {
  try {
    const opened = await openSource(source, options);
    return { opened, records: await readAll(opened) };
  } catch (error) {
    return { error: error as Error };
  }
}

/** Standard input that delivers `bytes` in chunks of `size` bytes. */
export function stdinOf(bytes: Uint8Array | string, size = 64 * 1024): PassThrough {
  const buffer = Buffer.from(bytes);
  const stream = new PassThrough();
  (async () => {
    for (let at = 0; at < buffer.length; at += size) {
      if (!stream.write(buffer.subarray(at, at + size))) await new Promise((go) => stream.once('drain', go));
    }
    stream.end();
  })();
  return stream;
}

/** Reads bytes given as standard input. */
export function readBytes(bytes: Uint8Array | string, options: OpenSourceOptions = {}, chunk?: number) {
  return readSource('-', { ...options, stdin: stdinOf(bytes, chunk) });
}

/** A temp folder; `remove()` in afterAll. */
export function tempFolder(): {
  dir: string;
  write(name: string, content: string | Uint8Array): string;
  remove(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-sync-hostile-'));
  return {
    dir,
    write(name, content) {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The CLI in this process (runCli: tracked until it ends, so removing its prefix waits for it),
 * with the network seams of its source URLs injected, and the caps of the API's answers when given
 * (scaled down).
 */
export function runCliWithNetwork(
  args: string[],
  env: NodeJS.ProcessEnv,
  network: SourceNetwork,
  answerCaps?: Partial<AnswerCaps>,
): Promise<CliResult> {
  return runCli(args, env, '', { network, ...(answerCaps ? { answerCaps } : {}) });
}

/**
 * A Seller API list that never ends: each page names the next (`?cursor=N`) and holds `perPage`
 * records (`S<id>` with `fieldsOf(id)`); `held(page)` may hold a page back until it settles.
 */
export function endlessList(
  base: () => string,
  {
    perPage = 1,
    fieldsOf = (_id: number): Record<string, unknown> => ({ name: 'n' }),
    held = async (_page: number): Promise<void> => {},
  }: {
    perPage?: number;
    fieldsOf?: (id: number) => Record<string, unknown>;
    held?: (page: number) => Promise<void>;
  } = {},
): Route {
  return (req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('cursor') ?? 0);
    void held(page).then(() => {
      const data = Array.from({ length: perPage }, (_, i) => {
        const id = page * perPage + i + 1;
        return { id, sku: `S${id}`, ...fieldsOf(id) };
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data, next: `${base()}/api/v1/products?cursor=${page + 1}` }));
    });
  };
}
