import { connect, createServer, type Server, type Socket } from 'node:net';
import { TEST_REDIS_URL } from './redis-prefix.js';

/**
 * A TCP relay on loopback to the suite's Redis, for a CLI subprocess whose step between two Redis
 * commands a test must catch (no sandbox request marks it): once the `nth` command containing
 * `marker` comes from the CLI (any of its connections), that command and what follows on its
 * connection are held back until `release`. The CLI then waits at that command, as it would on a
 * slow Redis; nothing else changes.
 */
export class RedisStall {
  private readonly sockets = new Set<Socket>();
  private readonly held: Array<() => void> = [];
  private released = false;
  private seen = 0;
  private reached: () => void = () => {};
  /** Resolves once the CLI sent the marked command (held back, not yet at Redis). */
  readonly stalled = new Promise<void>((resolve) => {
    this.reached = resolve;
  });

  private constructor(
    private readonly server: Server,
    /** The Redis URL to give the CLI: the suite's, through the relay. */
    readonly url: string,
  ) {}

  static async start(marker: string, nth = 1, target = TEST_REDIS_URL): Promise<RedisStall> {
    const upstream = new URL(target);
    let stall: RedisStall | null = null;
    const server = createServer((client) => stall?.relay(client, upstream, marker, nth));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('relay has no port');
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(address.port);
    stall = new RedisStall(server, url.toString());
    return stall;
  }

  /** Lets the held commands through, and all that come after. */
  release(): void {
    this.released = true;
    for (const resume of this.held.splice(0)) resume();
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, upstream: URL, marker: string, nth: number): void {
    const server = connect(Number(upstream.port || 6379), upstream.hostname);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        server.destroy();
      });
    }
    server.pipe(client);
    // The marker may straddle two reads: the tail of the last one (too short to hold it whole, so
    // never counted twice) is searched with the next.
    let tail = '';
    let holding = false;
    const queue: Buffer[] = [];
    client.on('data', (chunk: Buffer) => {
      if (!holding && !this.released) {
        const text = tail + chunk.toString('latin1');
        this.seen += text.split(marker).length - 1;
        if (this.seen >= nth) {
          holding = true;
          this.held.push(() => {
            for (const queued of queue.splice(0)) server.write(queued);
            holding = false;
          });
          this.reached();
        }
        tail = text.slice(text.length - (marker.length - 1));
      }
      if (holding) queue.push(chunk);
      else server.write(chunk);
    });
  }
}
