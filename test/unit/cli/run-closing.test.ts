import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/cli/program.js';
import { closingInterruptedLine, withRunClosing } from '../../../src/cli/run-closing.js';
import { onInterrupt } from '../../../src/cli/signals.js';

/** An io whose stderr is kept as text, and whose signals come from `source`. */
function ioOf(source: EventEmitter): { io: CliIo; stderr: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { io: { stderr, signals: source } as unknown as CliIo, stderr: () => text };
}

describe('an interrupt while `run` closes (RunClosing)', () => {
  it('heard after the outcome is said: the line at once, the close given up, exit 130', async () => {
    const source = new EventEmitter();
    const { io, stderr } = ioOf(source);
    let givenUp: AbortSignal | undefined;
    const code = await withRunClosing(io, async (closing) => {
      closing.hear(onInterrupt(source), 'run r1 had ended');
      givenUp = closing.signal;
      source.emit('SIGINT', 'SIGINT');
      expect(stderr()).toBe(closingInterruptedLine('SIGINT', 'run r1 had ended'));
      return 0;
    });
    expect(code).toBe(130);
    expect(givenUp?.aborted).toBe(true);
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });

  it('heard while the outcome was being said: the line once it is said, exit 143', async () => {
    const source = new EventEmitter();
    const { io, stderr } = ioOf(source);
    const code = await withRunClosing(io, async (closing) => {
      const interrupt = onInterrupt(source);
      source.emit('SIGTERM', 'SIGTERM');
      expect(stderr()).toBe('');
      closing.hear(interrupt, 'run r1 had stopped');
      return 4;
    });
    expect(code).toBe(143);
    expect(stderr()).toBe(closingInterruptedLine('SIGTERM', 'run r1 had stopped'));
  });

  it('not interrupted: the exit code as it was, no line, no listener left', async () => {
    const source = new EventEmitter();
    const { io, stderr } = ioOf(source);
    const code = await withRunClosing(io, async (closing) => {
      closing.hear(onInterrupt(source), 'run r1 had ended');
      return 1;
    });
    expect(code).toBe(1);
    expect(stderr()).toBe('');
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });

  it("never handed the run's interrupt (the run failed, or was interrupted before): nothing of its own", async () => {
    const source = new EventEmitter();
    const { io, stderr } = ioOf(source);
    const code = await withRunClosing(io, async (closing) => {
      expect(closing.signal).toBeUndefined();
      return 2;
    });
    expect(code).toBe(2);
    expect(stderr()).toBe('');
  });
});
