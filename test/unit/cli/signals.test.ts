import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { interruptible, onInterrupt, untilSignal } from '../../../src/cli/signals.js';

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
});
