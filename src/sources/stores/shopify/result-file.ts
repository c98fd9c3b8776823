import type { AddressKind } from '../../../net/address-policy.js';
import { sourceError } from '../../source-error.js';
import { redactUrl } from '../../url-source.js';
import { connectionOf, openCall } from '../http-call.js';
import { linesOf } from '../json-lines.js';
import { isPassingStatus, StoreTries } from '../store-tries.js';
import { type StoreReadOptions, sleepOf } from '../types.js';
import { type BulkLine, type BulkProduct, productsOf } from './product-groups.js';

export type { BulkProduct } from './product-groups.js';

/**
 * Streams the bulk operation's JSONL file and hands each product whole, with its variants and
 * images (product-groups.ts: one product held at a time, the file being grouped). The file's host is judged by the
 * address policy as a redirect from the API's, and gets no token (its URL is signed). Its GET is
 * tried again (store-tries.ts) until its answer begins; a file that breaks off once it streams ends
 * the read (the lines it gave are rows already), and so does one that ends short of the `fileSize`
 * Shopify gave: a body cut at a line's end, its connection closed, reads as whole otherwise, and the
 * products after the cut would be taken for gone from the shop (`--missing`).
 */
export async function* readBulkProducts(
  url: string,
  fileSize: number | null,
  from: AddressKind | undefined,
  label: string,
  options: StoreReadOptions,
): AsyncGenerator<BulkProduct> {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    throw sourceError(label, 'the bulk operation gave a result URL that is not one');
  }
  if (address.protocol !== 'https:' && address.protocol !== 'http:')
    throw sourceError(label, `the bulk operation's result URL is not http(s): ${redactUrl(url)}`);
  const failures = new StoreTries(true, sleepOf(options));
  let answer: Awaited<ReturnType<typeof openCall>>;
  for (;;) {
    try {
      answer = await openCall(address, { method: 'GET', headers: { accept: '*/*' } }, label, {
        ...connectionOf(options),
        ...(from ? { from } : {}),
      });
    } catch (error) {
      await failures.afterFailure(error);
      continue;
    }
    if (!isPassingStatus(answer.statusCode ?? 0)) break;
    answer.destroy();
    await failures.afterPassingStatus(
      `${label}: the bulk operation's result file answered ${answer.statusCode}`,
    );
  }
  const status = answer.statusCode ?? 0;
  if (status === 403 || status === 400 || status === 410) {
    answer.destroy();
    throw sourceError(
      label,
      `the bulk operation's result URL has expired (${status}): run again; nothing was sent`,
    );
  }
  if (status < 200 || status > 299) {
    answer.destroy();
    throw sourceError(label, `the bulk operation's result file answered ${status}`);
  }
  yield* productsOf(objectsOf(answer, label, options, fileSize), label);
}

/** The file's lines as objects, with their line numbers; a line that is not JSON ends the read. */
async function* objectsOf(
  answer: Parameters<typeof linesOf>[0],
  label: string,
  options: StoreReadOptions,
  fileSize: number | null,
): AsyncGenerator<BulkLine> {
  let line = 0;
  const size = fileSize === null ? null : { bytes: fileSize, by: "Shopify's fileSize" };
  const lines = linesOf(answer, label, options.maxRecordBytes, options.timeoutMs, size);
  for await (const text of lines) {
    line++;
    let object: Record<string, unknown>;
    try {
      object = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw sourceError(label, `line ${line} of the bulk result is not JSON`);
    }
    yield { line, object, bytes: text.length };
  }
}
