import { Socket } from 'node:net';

/**
 * Counts the writes this process makes on sockets to a Redis port: ioredis writes one command sent
 * alone, and a whole pipeline or MULTI, in one `socket.write`, so each is one round trip the client
 * waits on. Works for the CLI run in this process (main(argv, io)), not for child processes.
 */
export function countRedisWrites(port: number): { writes: () => number; stop: () => void } {
  const original = Socket.prototype.write;
  let writes = 0;
  Socket.prototype.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (this.remotePort === port) writes++;
    return original.apply(this, args);
  } as Socket['write'];
  return {
    writes: () => writes,
    stop: () => {
      Socket.prototype.write = original;
    },
  };
}
