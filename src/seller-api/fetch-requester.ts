import type { HttpRequester } from './http-exchange.js';

/** An injected `fetch` (tests' fakes) as an HttpRequester, used exactly as the client always did. */
export function fetchRequester(fetch: typeof globalThis.fetch): HttpRequester {
  return async ({ method, url, headers, body, timeoutMs }) => {
    const response = await fetch(url, {
      method,
      headers,
      body,
      // A redirect is not part of the spec; following one could carry the key elsewhere.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers.entries()),
      readBounded: (max) => readBounded(response, max),
    };
  };
}

/** The body as text, or null (and the body cancelled) once it passes `max` bytes. */
async function readBounded(response: Response, max: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
