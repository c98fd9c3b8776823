import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RowOutcome } from '../../../src/interfaces.js';
import type { RowWrite } from '../../../src/runs/settle-batch.js';
import { rowWrite, SettleBatch } from '../../../src/runs/settle-batch.js';

const outcome = (row: number): RowOutcome => ({
  row,
  key: `sku-${row}`,
  action: 'create',
  productId: `p${row}`,
  status: 'ok',
  error: '',
});
const record = (): RowWrite => rowWrite({ write: () => undefined }, null);

/** A settle that answers when told to, and remembers what each call carried. */
function manualSettle() {
  const calls: Array<{ rows: number[]; records: number; answer: (error?: Error) => void }> = [];
  const settle = (outcomes: RowOutcome[], records: RowWrite[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({
        rows: outcomes.map((o) => o.row as number),
        records: records.length,
        answer: (error) => (error ? reject(error) : resolve()),
      });
    });
  return { calls, settle };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('rows that wrote settle together', () => {
  it('in one settle when they finish in the same turn, records and outcomes kept together', async () => {
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle);
    const done = [1, 2, 3].map((row) => batch.add([outcome(row)], [record(), record()]));
    await turn();
    expect(calls.map((call) => [call.rows, call.records])).toEqual([[[1, 2, 3], 6]]);
    calls[0]?.answer();
    await Promise.all(done);
  });

  it('a row that finishes while a settle is on its way waits for it only, then goes with the others that did', async () => {
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle);
    const first = batch.add([outcome(1)], [record()]);
    await turn();
    const later = [batch.add([outcome(2)], [record()])];
    await turn();
    later.push(batch.add([], [record()]), batch.add([outcome(3)], []));
    await turn();
    expect(calls).toHaveLength(1);
    calls[0]?.answer();
    await first;
    await turn();
    expect(calls.map((call) => call.rows)).toEqual([[1], [2, 3]]);
    expect(calls[1]?.records).toBe(2);
    calls[1]?.answer();
    await Promise.all(later);
  });

  it('a failed settle fails the rows it carried, and the next rows still settle', async () => {
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle);
    const failing = [batch.add([outcome(1)], []), batch.add([outcome(2)], [])];
    await turn();
    const next = batch.add([outcome(3)], []);
    calls[0]?.answer(new Error('OOM command not allowed'));
    const results = await Promise.allSettled(failing);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    await turn();
    expect(calls[1]?.rows).toEqual([3]);
    calls[1]?.answer();
    await expect(next).resolves.toBeUndefined();
  });
});

describe('a written row waits for the rows of its chunk still running, within the hold', () => {
  const hold = { ms: 10, rows: 4 };
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits up to hold.ms after the first waiting row, then settles every row waiting', async () => {
    vi.useFakeTimers();
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle, hold);
    const turns = [1, 2, 3].map(() => batch.begin());
    const first = turns[0]?.add([outcome(1)], [record()]);
    await vi.advanceTimersByTimeAsync(6);
    const second = turns[1]?.add([outcome(2)], [record()]);
    await vi.advanceTimersByTimeAsync(3);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((call) => call.rows)).toEqual([[1, 2]]);
    calls[0]?.answer();
    await Promise.all([first, second]);
    turns[2]?.end();
  });

  it('settles at once when hold.rows rows wait', async () => {
    vi.useFakeTimers();
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle, hold);
    const turns = [1, 2, 3, 4, 5].map(() => batch.begin());
    const done = [1, 2, 3, 4].map((row) => turns[row - 1]?.add([outcome(row)], []));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.rows)).toEqual([[1, 2, 3, 4]]);
    calls[0]?.answer();
    await Promise.all(done);
    turns[4]?.end();
  });

  it("never holds the chunk's end: once no row is running, the waiting rows go at once", async () => {
    vi.useFakeTimers();
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle, hold);
    const [a, b, c, d] = [batch.begin(), batch.begin(), batch.begin(), batch.begin()];
    const done = [a?.add([outcome(1)], []), b?.add([outcome(2)], [])];
    // A row that sends nothing (unchanged, or a pause) ends; ending twice counts once.
    c?.end();
    c?.end();
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(0);
    d?.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.rows)).toEqual([[1, 2]]);
    calls[0]?.answer();
    await Promise.all(done);
    // The chunk's last row to settle goes at once too.
    const e = batch.begin();
    const last = e.add([outcome(3)], []);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.rows)).toEqual([[1, 2], [3]]);
    calls[1]?.answer();
    await last;
  });

  it('rows that finish while a settle is on its way go together when it returns, if their hold is over', async () => {
    vi.useFakeTimers();
    const { calls, settle } = manualSettle();
    const batch = new SettleBatch(settle, hold);
    const turns = [1, 2, 3, 4].map(() => batch.begin());
    const first = turns[0]?.add([outcome(1)], []);
    await vi.advanceTimersByTimeAsync(10);
    expect(calls).toHaveLength(1);
    const later = [turns[1]?.add([outcome(2)], []), turns[2]?.add([outcome(3)], [])];
    await vi.advanceTimersByTimeAsync(15);
    expect(calls).toHaveLength(1);
    calls[0]?.answer();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((call) => call.rows)).toEqual([[1], [2, 3]]);
    calls[1]?.answer();
    await Promise.all(later);
    turns[3]?.end();
  });
});
