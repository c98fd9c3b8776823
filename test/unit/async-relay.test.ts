import { describe, expect, it } from 'vitest';
import { relay } from '../../src/async-relay.js';

/** A source of `count` numbers that records how it was used; it throws at `failAt` when given. */
function numbers(count: number, failAt?: number) {
  const log: string[] = [];
  async function* generate(): AsyncGenerator<number> {
    try {
      for (let i = 1; i <= count; i++) {
        if (i === failAt) throw new Error(`broken at ${i}`);
        yield i;
      }
    } finally {
      log.push('source closed');
    }
  }
  return { log, iterator: generate() };
}

async function readAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const item of items) read.push(item);
  return read;
}

describe('relay', () => {
  it('gives the first items, then each of the source through its step, and ends once', async () => {
    const source = numbers(3);
    const ends: string[] = [];

    const read = await readAll(
      relay(source.iterator, {
        first: ['a', 'b'],
        each: (n) => `#${n}`,
        onEnd: async () => {
          ends.push('end');
        },
      }),
    );

    expect(read).toEqual(['a', 'b', '#1', '#2', '#3']);
    expect(ends).toEqual(['end']);
    expect(source.log).toEqual(['source closed']);
  });

  it('ends, then throws what onError makes of the source’s error, after the items before it', async () => {
    const source = numbers(5, 3);
    const read: number[] = [];
    const ends: string[] = [];
    const relayed = relay(source.iterator, {
      onError: (error) => new Error(`wrapped: ${(error as Error).message}`),
      onEnd: async () => {
        ends.push('end');
      },
    });

    await expect(
      (async () => {
        for await (const n of relayed) read.push(n);
      })(),
    ).rejects.toThrow('wrapped: broken at 3');

    expect(read).toEqual([1, 2]);
    expect(ends).toEqual(['end']);
    expect(await relayed.next()).toEqual({ done: true, value: undefined });
  });

  it('closes the source and ends when the consumer stops early, and not twice', async () => {
    const source = numbers(100);
    const ends: string[] = [];
    const relayed = relay(source.iterator, {
      onEnd: async () => {
        ends.push('end');
      },
    });

    for await (const n of relayed) if (n === 2) break;
    await relayed.return?.();

    expect(source.log).toEqual(['source closed']);
    expect(ends).toEqual(['end']);
  });

  it('ends and throws when its step throws', async () => {
    const source = numbers(3);
    const ends: string[] = [];
    const relayed = relay(source.iterator, {
      each: (n) => {
        if (n === 2) throw new Error('step failed at 2');
        return n;
      },
      onEnd: async () => {
        ends.push('end');
      },
    });

    await expect(readAll(relayed)).rejects.toThrow('step failed at 2');
    expect(ends).toEqual(['end']);
    expect(source.log).toEqual(['source closed']);
  });

  it('closes the source when closed before the first item, and gives nothing more', async () => {
    const source = numbers(3);
    const relayed = relay(source.iterator, { first: [0] });

    await relayed.return?.();

    expect(await relayed.next()).toEqual({ done: true, value: undefined });
    expect(await source.iterator.next()).toEqual({ done: true, value: undefined });
  });
});
