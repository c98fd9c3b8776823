import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES } from '../../../src/defaults.js';
import { contentFingerprint } from '../../../src/sources/fingerprint.js';
import { openSource } from '../../../src/sources/index.js';
import { stdinOf } from './helpers.js';

/** A CSV of `rows` rows, each quantity its row number plus `plus`. */
function csv(rows: number, plus = 0): string {
  const lines = ['sku,name,quantity'];
  for (let i = 1; i <= rows; i++) lines.push(`SKU-${i},Product ${i},${i + plus}`);
  return `${lines.join('\n')}\n`;
}

/** The fingerprint of `text` read from standard input in chunks of `chunk` bytes. */
async function fingerprintOf(text: string, chunk: number): Promise<string | undefined> {
  const opened = await openSource('-', { stdin: stdinOf(text, chunk) });
  await opened.close();
  return opened.fingerprint;
}

describe("a source's content fingerprint (the identity of a feed's run)", () => {
  const big = csv(5000);

  it('is the same for the same bytes however they came in chunks', async () => {
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * SNIFF_BYTES);
    // 48 KiB chunks: the sniff holds 96 KiB; 1000-byte chunks: 65 KiB. Only the first 64 KiB count.
    expect(await fingerprintOf(big, 48 * 1024)).toBe(await fingerprintOf(big, 1000));
  });

  it('differs for a change within the first 64 KiB, the length the same', async () => {
    const changed = big.replace('SKU-1,Product 1,1\n', 'SKU-1,Product 1,2\n');
    expect(changed).not.toBe(big);
    expect(await fingerprintOf(changed, 4096)).not.toBe(await fingerprintOf(big, 4096));
  });

  it('past the first 64 KiB, tells content apart by the declared length only (the documented limit)', () => {
    const prefix = Buffer.alloc(SNIFF_BYTES + 10, 'a');
    const sniffed = { prefix, complete: false };
    expect(contentFingerprint(sniffed, 1_000_000)).toBe(contentFingerprint(sniffed, 1_000_000));
    expect(contentFingerprint(sniffed, 1_000_000)).not.toBe(contentFingerprint(sniffed, 1_000_001));
  });

  it('of a source read whole within 64 KiB is of its content alone', () => {
    const whole = { prefix: Buffer.from(csv(10)), complete: true };
    expect(contentFingerprint(whole, 100)).toBe(contentFingerprint(whole, 2000));
    expect(contentFingerprint(whole, undefined)).not.toBe(
      contentFingerprint({ prefix: Buffer.from(csv(10, 1)), complete: true }, undefined),
    );
  });
});
