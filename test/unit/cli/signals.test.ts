import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BeforeRun, interruptible, onInterrupt, untilSignal } from '../../../src/cli/signals.js';

/** A CLI run inside a test process hears SIGINT from an emitter of its own (CliIo.signals). */
describe('signals from a source other than the process', () => {
  it('onInterrupt aborts on the source, and listens on the process not at all', () => {
    const before = process.listenerCount('SIGINT');
    const source = new EventEmitter();
    const interrupt = onInterrupt(source);
    expect(process.listenerCount('SIGINT')).toBe(before);

    source.emit('SIGTERM', 'SIGTERM');

    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.exitCode()).toBe(143);
    expect(source.listenerCount('SIGINT')).toBe(0);
  });

  it('untilSignal resolves with the name the source emits', async () => {
    const source = new EventEmitter();
    const stopped = untilSignal(source);
    source.emit('SIGINT', 'SIGINT');
    expect(await stopped).toBe('SIGINT');
    expect(source.listenerCount('SIGTERM')).toBe(0);
  });

  it('interruptible gives up its wait on the source', async () => {
    const source = new EventEmitter();
    const waiting = interruptible(() => new Promise(() => {}), 'while the shop prepares', source);
    source.emit('SIGINT', 'SIGINT');
    await expect(waiting).rejects.toThrow('interrupted (SIGINT) while the shop prepares');
  });

  it('BeforeRun says the innermost wait under way, and closes what a wait given up opens later', async () => {
    const source = new EventEmitter();
    const before = new BeforeRun('before the run was created', source);
    let open: (value: string) => void = () => {};
    const closed: string[] = [];
    const outer = before.during(
      () =>
        before.during(() => new Promise<string>((resolve) => (open = resolve)), {
          what: 'while the shop prepares',
          abandon: (late) => closed.push(late),
        }),
      { abandon: (late) => closed.push(`outer ${late}`) },
    );
    source.emit('SIGTERM', 'SIGTERM');

    await expect(outer).rejects.toMatchObject({
      message: 'interrupted (SIGTERM) while the shop prepares',
      exitCode: 143,
    });
    open('the file');
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toEqual(['the file']);
    expect(() => before.check()).toThrow('interrupted (SIGTERM) while the shop prepares');
    expect(source.listenerCount('SIGINT')).toBe(0);
  });

  it("BeforeRun handed over: a signal is the next listener's, and a step is not given up", async () => {
    const source = new EventEmitter();
    const before = new BeforeRun('before the run was created', source);
    expect(await before.during(async () => 'opened')).toBe('opened');
    before.handOver();
    expect(source.listenerCount('SIGINT')).toBe(0);
    expect(() => before.check()).not.toThrow();
  });
});
