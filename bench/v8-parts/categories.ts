/**
 * Which part of the Node process a `perf report` symbol belongs to: the kernel, V8's optimising
 * compiler, its collector, its parser, the code it runs before optimising it (interpreter, baseline
 * code, inline caches: V8's builtins), the code it optimised (`[JIT]`), or the C library. The CPU of
 * a short `run` (BENCHMARKS.md, issue 31) is mostly V8 warming up, which a `.cpuprofile` cannot
 * show: it samples JavaScript frames only, and wall time, not CPU.
 */
export type V8Part =
  | 'kernel'
  | 'V8 optimising compiler'
  | 'V8 garbage collector'
  | 'V8 parser and bytecode compiler'
  | 'V8 builtins (interpreter, baseline code, inline caches)'
  | 'optimised JavaScript ([JIT])'
  | 'V8 runtime, other'
  | 'Node and libuv'
  | 'C library (malloc, memcpy)'
  | 'other';

export const V8_PARTS: readonly V8Part[] = [
  'V8 builtins (interpreter, baseline code, inline caches)',
  'V8 optimising compiler',
  'V8 runtime, other',
  'kernel',
  'C library (malloc, memcpy)',
  'V8 garbage collector',
  'V8 parser and bytecode compiler',
  'optimised JavaScript ([JIT])',
  'Node and libuv',
  'other',
];

const GC = /Scavenge|Marking|Sweeper|Heap::|Evacuat|MemoryChunk|PagedSpace|MarkCompact|MinorMC|GCTracer/;
const PARSE = /Parser|Scanner|PreParse|AstNode|BytecodeGenerator|BytecodeArrayBuilder|Compiler::Compile/;

/** `dso` and `symbol` as `perf report --sort dso,sym` prints them. */
export function v8PartOf(dso: string, symbol: string): V8Part {
  if (dso.startsWith('[kernel')) return 'kernel';
  if (dso.startsWith('[JIT]') || /^perf-\d+\.map$/.test(dso)) return 'optimised JavaScript ([JIT])';
  if (symbol.startsWith('Builtins_')) return 'V8 builtins (interpreter, baseline code, inline caches)';
  if (symbol.includes('compiler::') || symbol.includes('maglev::')) return 'V8 optimising compiler';
  if (GC.test(symbol)) return 'V8 garbage collector';
  if (PARSE.test(symbol)) return 'V8 parser and bytecode compiler';
  if (/^libc[.-]/.test(dso) || /malloc|^_int_free|^__mem/.test(symbol)) return 'C library (malloc, memcpy)';
  if (symbol.startsWith('v8::')) return 'V8 runtime, other';
  if (symbol.startsWith('node::') || symbol.startsWith('uv_') || dso === 'node') return 'Node and libuv';
  return 'other';
}

/** One line of `perf report --stdio -n --no-children --sort dso,sym -g none`: samples, dso, symbol. */
const LINE = /^\s*[\d.]+%\s+(\d+)\s+(\[JIT\] tid \d+|\S+)\s+\[[^\]]+\]\s+(.*)$/;

/** Samples per part, from that report's text. */
export function samplesByPart(report: string): Map<V8Part, number> {
  const parts = new Map<V8Part, number>();
  for (const line of report.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, samples, dso, symbol] = match as unknown as [string, string, string, string];
    const part = v8PartOf(dso, symbol.trim());
    parts.set(part, (parts.get(part) ?? 0) + Number(samples));
  }
  return parts;
}
