import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';

export interface ReceivedPost {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  raw: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks/T000/secret-token`: the path stands for a Slack token. */
  url: string;
  /** Every POST received, in order. */
  posts: ReceivedPost[];
  /** The status of each answer in turn; the last one repeats. 'hang': never answer. */
  answers: Array<number | 'hang'>;
}

/** Per test: a webhook on loopback that records every POST and answers as `answers` says. */
export function useWebhookReceiver(): WebhookReceiver {
  const receiver = {} as WebhookReceiver;
  let server: ReturnType<typeof createServer>;
  const hanging = new Set<ServerResponse>();
  beforeEach(async () => {
    receiver.posts = [];
    receiver.answers = [200];
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        receiver.posts.push({
          path: request.url ?? '',
          headers: request.headers,
          body: JSON.parse(raw),
          raw,
        });
        const index = Math.min(receiver.posts.length - 1, receiver.answers.length - 1);
        const answer = receiver.answers[index] ?? 200;
        if (answer === 'hang') {
          hanging.add(response);
          return;
        }
        response.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T000/secret-token`;
  });
  afterEach(async () => {
    for (const response of hanging) response.destroy();
    hanging.clear();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return receiver;
}
