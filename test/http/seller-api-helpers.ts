import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { type GetRetry, SellerApiClient, type SellerApiClientOptions } from '../../src/seller-api/index.js';
import { isRetryableRead } from '../../src/sync/error-policy.js';

export const ORIGIN = 'https://api.example.com';
export const BASE_PATH = '/api/v1';
export const API_KEY = 'sk_test_9f8e7d6c5b4a3210';
/** 2024-05-10T15:30:00Z: a fixed clock, so reset instants are exact. */
export const NOW = Date.parse('2024-05-10T15:30:00Z');

export interface ClientProbe {
  client: SellerApiClient;
  /** Every onRequest event, in order. */
  requests: Array<{ method: string; path: string; status: number | null; ms: number }>;
  /** How many tasks passed through `schedule`. */
  scheduled: () => number;
  /** Every wait the client asked of `sleep`. */
  sleeps: number[];
  /** Everything the logger wrote (debug level). */
  logs: () => string;
}

export function probeClient(overrides: Partial<SellerApiClientOptions> = {}): ClientProbe {
  const requests: ClientProbe['requests'] = [];
  const sleeps: number[] = [];
  let scheduled = 0;
  let logText = '';
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logText += String(chunk);
      done();
    },
  });
  const client = new SellerApiClient({
    baseUrl: ORIGIN + BASE_PATH,
    apiKey: API_KEY,
    now: () => NOW,
    logger: createLogger('debug', logStream),
    schedule: (task) => {
      scheduled += 1;
      return task();
    },
    onRequest: (event) => requests.push(event),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { client, requests, scheduled: () => scheduled, sleeps, logs: () => logText };
}

/** Two retries with short waits; which failures are retried, the worker's error table says. */
export const fastRetry: GetRetry = {
  policy: { retries: 2, baseDelayMs: 100, maxDelayMs: 1_000 },
  retryable: isRetryableRead,
};

export async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const all: T[][] = [];
  for await (const page of pages) all.push(page);
  return all;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-error: ${String(error)}`);
  }
  throw new Error('expected a rejection, but it resolved');
}
