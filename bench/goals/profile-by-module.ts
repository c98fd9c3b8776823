import { readFile } from 'node:fs/promises';
import { markdownTable } from './result.js';

/** The parts of a V8 .cpuprofile this reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ModuleTime {
  module: string;
  /** Self time of the samples in the module, µs. */
  micros: number;
}

/**
 * Who a frame's code belongs to: a file of ours (`src/…/x.ts`, mapped back from dist), an npm
 * package, a part of Node (`node:streams`, `node:deps/undici` for fetch), or V8 itself.
 */
export function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(V8 builtins)';
  const inPackage = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1] ?? url;
  const ours = /\/dist\/((?:src|bench)\/.+)\.js$/.exec(url);
  if (ours) return `${ours[1]}.ts`;
  if (url.startsWith('node:')) {
    const parts = url
      .slice('node:'.length)
      .replace(/^internal\//, '')
      .split('/');
    return `node:${parts[0] === 'deps' ? `deps/${parts[1]}` : parts[0]}`;
  }
  return url.replace(/^file:\/\//, '');
}

/** Self time by module over every sample, idle time left out; largest first. */
export async function selfTimeByModule(profilePath: string): Promise<ModuleTime[]> {
  const profile = JSON.parse(await readFile(profilePath, 'utf8')) as CpuProfile;
  const moduleOfNode = new Map(
    profile.nodes.map((n) => [n.id, moduleOf(n.callFrame.url, n.callFrame.functionName)]),
  );
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const module = moduleOfNode.get(id) ?? '(unknown)';
    if (module === '(idle)') return;
    micros.set(module, (micros.get(module) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...micros].map(([module, t]) => ({ module, micros: t })).sort((a, b) => b.micros - a.micros);
}

/** The top modules by µs of CPU per row, the rest summed, and the total. */
export function perRowTable(times: ModuleTime[], rows: number, top = 12): string {
  const total = times.reduce((sum, t) => sum + t.micros, 0);
  const rest = times.slice(top).reduce((sum, t) => sum + t.micros, 0);
  const line = (module: string, micros: number) => [
    module,
    (micros / rows).toFixed(1),
    `${((100 * micros) / total).toFixed(1)}%`,
  ];
  return markdownTable(
    ['module (self time)', 'µs of CPU per row', 'share'],
    [
      ...times.slice(0, top).map((t) => line(t.module, t.micros)),
      line(`${Math.max(0, times.length - top)} others`, rest),
      line('total', total),
    ],
  );
}
