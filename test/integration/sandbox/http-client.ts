import { afterEach } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/index.js';

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
}

/** Requests to a running sandbox as a client would send them (spec 4: JSON, Bearer key). */
export function clientFor(sandbox: Sandbox, key: string | null = sandbox.defaultKey.key) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    options: { raw?: string } = {},
  ): Promise<Reply> => {
    const url = /^https?:/.test(path) ? path : `${sandbox.baseUrl}${path}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (key !== null) headers.Authorization = `Bearer ${key}`;
    const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: payload });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
  };
}

/** The `data` of a `{data: …}` answer. */
export function dataOf(reply: Reply): Record<string, unknown> {
  return (reply.body as { data: Record<string, unknown> }).data;
}

/**
 * Per test file: `start(options)` serves a sandbox and gives its client and default seller; the
 * sandbox is closed after each test.
 */
export function useSandboxServer() {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return async function start(options: SandboxOptions = {}) {
    sandbox = await startSandbox(options);
    return { sandbox, call: clientFor(sandbox), seller: sandbox.defaultKey.seller };
  };
}
