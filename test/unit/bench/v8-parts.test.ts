import { describe, expect, it } from 'vitest';
import { samplesByPart, v8PartOf } from '../../../bench/v8-parts/categories.js';

// Lines as `perf report --stdio -n --no-children --sort dso,sym -g none` printed them for a `run`.
const REPORT = `
# Samples: 9K of event 'cpu-clock:ppp'
#
    12.34%           979  [kernel.kallsyms]     [k] pvm_irq_enable
     3.95%           376  node                  [.] Builtins_LoadIC
     1.59%           152  node                  [.] v8::internal::compiler::GraphReducer::ReduceTop
     1.57%           150  libc.so.6             [.] __memmove_avx512_unaligned_erms
     0.99%            94  node                  [.] v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>
     0.45%            43  node                  [.] v8::internal::Scanner::Next
     0.40%            38  [JIT] tid 27287       [.] LazyCompile:*syncRow file:///x/dist/bundle/chunks/run.js:12
     0.33%            31  node                  [.] v8::internal::LookupIterator::LookupInRegularHolder<false>
     0.20%            19  node                  [.] uv__io_poll
`;

describe('the CPU of a run by part of the process (bench/cpu-by-v8-part.ts)', () => {
  it('sums the samples of each line into its part', () => {
    const parts = samplesByPart(REPORT);
    expect(Object.fromEntries(parts)).toEqual({
      kernel: 979,
      'V8 builtins (interpreter, baseline code, inline caches)': 376,
      'V8 optimising compiler': 152,
      'C library (malloc, memcpy)': 150,
      'V8 garbage collector': 94,
      'V8 parser and bytecode compiler': 43,
      'optimised JavaScript ([JIT])': 38,
      'V8 runtime, other': 31,
      'Node and libuv': 19,
    });
  });

  it("reads the compiler's own scheduler as the compiler, not as the collector's", () => {
    expect(v8PartOf('node', 'v8::internal::compiler::Scheduler::ScheduleLate')).toBe(
      'V8 optimising compiler',
    );
    expect(v8PartOf('node', 'v8::internal::MarkCompactCollector::CollectGarbage')).toBe(
      'V8 garbage collector',
    );
  });
});
