import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER, INCREMENTAL_CHUNK_SIZE } from '../../../src/defaults.js';
import { chunkSizeOf, highWaterOf } from '../../../src/queue/chunking.js';
import { MAX_QUEUED_ROWS } from '../../../src/redis/sizing.js';

describe('the chunks of a run and the high-water mark they are counted by', () => {
  it('gives an --incremental run bigger chunks than any other run', () => {
    expect(chunkSizeOf({ incremental: true })).toBe(INCREMENTAL_CHUNK_SIZE);
    expect(chunkSizeOf({ incremental: false })).toBe(DEFAULT_CHUNK_SIZE);
    expect(chunkSizeOf({})).toBe(DEFAULT_CHUNK_SIZE);
    expect(INCREMENTAL_CHUNK_SIZE).toBeGreaterThan(DEFAULT_CHUNK_SIZE);
  });

  it('keeps the mark of a plain run at DEFAULT_HIGH_WATER chunks', () => {
    expect(highWaterOf(DEFAULT_CHUNK_SIZE)).toBe(DEFAULT_HIGH_WATER);
  });

  it('lets no chunk size queue more rows at the mark than the Redis sizing reserves, nor far fewer', () => {
    for (const size of [DEFAULT_CHUNK_SIZE, INCREMENTAL_CHUNK_SIZE, 10, 333, 1500, 7000]) {
      const rows = highWaterOf(size) * size;
      expect(rows, `chunks of ${size}`).toBeLessThanOrEqual(MAX_QUEUED_ROWS);
      // One chunk fewer would leave room for another: the mark is as high as the rows allow.
      expect(rows + size, `chunks of ${size}`).toBeGreaterThan(MAX_QUEUED_ROWS);
    }
  });

  it('waits at one chunk at least, even for a chunk bigger than the rows allowed', () => {
    expect(highWaterOf(MAX_QUEUED_ROWS * 2)).toBe(1);
  });
});
