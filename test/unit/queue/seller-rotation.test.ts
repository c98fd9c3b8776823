import { describe, expect, it } from 'vitest';
import { SellerRotation } from '../../../src/queue/seller-rotation.js';

const options = { slots: 2, sliceMs: 10_000, idleMs: 5_000 };
const set = (...queues: string[]) => new Set(queues);

describe('SellerRotation', () => {
  it('serves the queues with work, at most `slots` of them, longest waiting first', () => {
    const rotation = new SellerRotation(options);
    const all = set('a', 'b', 'c', 'd');
    expect(rotation.step(set('c'), all, 0)).toEqual({ attach: ['c'], release: [] });
    // b and d start waiting at 1000; a at 2000: one slot is left, b gets it (then d, seen after b).
    expect(rotation.step(set('b', 'c', 'd'), all, 1000)).toEqual({ attach: ['b'], release: [] });
    expect(rotation.step(set('a', 'b', 'c', 'd'), all, 2000)).toEqual({ attach: [], release: [] });
    expect(rotation.servedQueues).toEqual(['c', 'b']);
  });

  it('never serves a queue it may not (no key held), nor keeps one that became so', () => {
    const rotation = new SellerRotation({ ...options, slots: 1 });
    expect(rotation.step(set('a', 'x'), set('a'), 0)).toEqual({ attach: ['a'], release: [] });
    expect(rotation.step(set('a', 'x'), set('x'), 1000)).toEqual({ attach: [], release: ['a'] });
    rotation.released('a');
    expect(rotation.step(set('a', 'x'), set('x'), 2000)).toEqual({ attach: ['x'], release: [] });
  });

  it('lets an idle queue go after idleMs when nobody waits, and at once when another does', () => {
    const rotation = new SellerRotation({ ...options, slots: 1 });
    const all = set('a', 'b');
    rotation.step(set('a'), all, 0);
    expect(rotation.step(set(), all, 1000).release).toEqual([]);
    expect(rotation.step(set(), all, 5999).release).toEqual([]);
    expect(rotation.step(set(), all, 6000).release).toEqual(['a']);
    rotation.released('a');

    rotation.step(set('a'), all, 7000);
    // a has no job left to take and b waits: a's slot goes to b as soon as a has closed.
    expect(rotation.step(set('b'), all, 7100)).toEqual({ attach: [], release: ['a'] });
    expect(rotation.step(set('b'), all, 7200)).toEqual({ attach: [], release: [] });
    rotation.released('a');
    expect(rotation.step(set('b'), all, 7300)).toEqual({ attach: ['b'], release: [] });
  });

  it('makes a seller with work give up its slot after its slice when another waits, then queue behind it', () => {
    const rotation = new SellerRotation({ ...options, slots: 1 });
    const all = set('big', 'small', 'other');
    rotation.step(set('big'), all, 0);
    // small waits from 1000; big keeps its slot until its slice is over.
    expect(rotation.step(set('big', 'small'), all, 1000)).toEqual({ attach: [], release: [] });
    expect(rotation.step(set('big', 'small'), all, 9999)).toEqual({ attach: [], release: [] });
    expect(rotation.step(set('big', 'small'), all, 10_000)).toEqual({ attach: [], release: ['big'] });
    // Its jobs in progress finish first: the slot is not free until released.
    expect(rotation.step(set('big', 'small', 'other'), all, 10_500)).toEqual({ attach: [], release: [] });
    rotation.released('big');
    expect(rotation.step(set('big', 'small', 'other'), all, 11_000)).toEqual({
      attach: ['small'],
      release: [],
    });
    // big waited again from 10,000, before other (10,500): it goes next.
    rotation.step(set('big', 'other'), all, 12_000);
    rotation.released('small');
    expect(rotation.step(set('big', 'other'), all, 12_100).attach).toEqual(['big']);
  });

  it('serves every queue with work in turn, however many there are', () => {
    const rotation = new SellerRotation({ slots: 3, sliceMs: 1000, idleMs: 5000 });
    const queues = Array.from({ length: 50 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const all = new Set(queues);
    const servedOnce = new Set<string>();
    let maxServed = 0;
    for (let now = 0; now < 60_000; now += 100) {
      const step = rotation.step(all, all, now);
      for (const queue of step.release) rotation.released(queue);
      for (const queue of rotation.servedQueues) servedOnce.add(queue);
      maxServed = Math.max(maxServed, rotation.servedQueues.length);
    }
    expect(servedOnce).toEqual(all);
    expect(maxServed).toBe(3);
  });
});
