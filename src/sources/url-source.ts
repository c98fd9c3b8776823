import type { ByteSource } from './byte-source.js';
import { extensionOf } from './detect-format.js';
import { SourceError, sourceError } from './source-error.js';

export const DEFAULT_TIMEOUT_MS = 60_000;

/** A URL fit for messages and logs: no user, password, query or fragment (they may hold a token). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/**
 * Streams a feed. `timeoutMs` bounds the wait for the answer and then for each next piece of the body,
 * so a large feed may take as long as it needs but a stalled one fails.
 */
export async function openUrl(url: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<ByteSource> {
  const label = redactUrl(url);
  const controller = new AbortController();
  let timedOut = false;
  let timer = setTimeout(() => abort(), timeoutMs);
  function abort(): void {
    timedOut = true;
    controller.abort();
  }
  function failure(error: unknown): Error {
    clearTimeout(timer);
    if (timedOut) return sourceError(label, `feed did not answer within ${formatMs(timeoutMs)}`);
    return sourceError(label, `cannot fetch the feed: ${describeFetchError(error, url, label)}`);
  }

  let response: Response;
  try {
    const { address, headers } = withoutCredentials(url);
    response = await fetchImpl(address, { signal: controller.signal, redirect: 'follow', headers });
  } catch (error) {
    throw failure(error);
  }
  if (!response.ok) {
    clearTimeout(timer);
    await response.body?.cancel().catch(() => undefined);
    throw new SourceError(`feed answered ${`${response.status} ${response.statusText}`.trim()}: ${label}`);
  }
  const reader = response.body?.getReader();

  async function* chunks(): AsyncGenerator<Uint8Array> {
    if (!reader) return;
    try {
      for (;;) {
        clearTimeout(timer);
        timer = setTimeout(() => abort(), timeoutMs);
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } catch (error) {
      throw failure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  let closed = false;
  // The body's length, when the feed says it and sends it as is (a compressed body inflates).
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  const identity = !response.headers.get('content-encoding');
  return {
    label,
    extension: extensionOf(new URL(url).pathname),
    ...(identity && Number.isSafeInteger(length) && length > 0 ? { size: length } : {}),
    chunks: chunks(),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      await reader?.cancel().catch(() => undefined);
    },
  };
}

/**
 * fetch refuses a URL with `user:password@` (and its error repeats the URL, password included), so the
 * credentials travel as HTTP Basic authentication instead.
 */
export function withoutCredentials(url: string): { address: string; headers: Record<string, string> } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { address: url, headers: {} };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const token = Buffer.from(`${user}:${password}`).toString('base64');
  return { address: parsed.href, headers: { authorization: `Basic ${token}` } };
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The cause's code where there is one (ECONNREFUSED, ENOTFOUND); messages may repeat the URL, so no URL. */
function describeFetchError(error: unknown, url: string, label: string): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code) return cause.code;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return message.replaceAll(url, label);
}
