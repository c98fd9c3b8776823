import { readFile } from 'node:fs/promises';
import { markdownTable } from './result.js';

/** The parts of a V8 .cpuprofile this reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

export interface ModuleTime {
  module: string;
  /** Self time of the samples in the module, µs. */
  micros: number;
}

const BUILTINS = '(V8 builtins)';

/**
 * Who a frame's code belongs to: a file of ours (`src/…/x.ts`, mapped back from dist), an npm
 * package, a part of Node (`node:streams`, `node:deps/undici` for fetch), or V8 itself.
 */
export function moduleOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : BUILTINS;
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

/** Node's own parts and V8 builtins: their time counts for the package or file that called them. */
const isInternal = (module: string) =>
  module === BUILTINS || (module.startsWith('node:') && !module.startsWith('node:deps/'));

/**
 * The module each profile node's time counts for: its own, or for a V8 builtin (JSON.parse, a
 * socket write) or a part of Node (streams, net) the nearest caller that is a package or a file of
 * ours, so that "ioredis" includes the writes and parsing it asks of Node. Time with no such caller
 * (timers, module loading) stays with the first part of Node.
 */
function modulesOfNodes(profile: CpuProfile): Map<number, string> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const modules = new Map<number, string>();
  const own = (node: CpuProfile['nodes'][number]) =>
    moduleOf(node.callFrame.url, node.callFrame.functionName);
  for (const node of profile.nodes) {
    let fallback = own(node);
    let frame: CpuProfile['nodes'][number] | undefined = node;
    // The walk goes through the profile's (root) too: above it there is no caller at all.
    while (frame && (isInternal(own(frame)) || own(frame) === '(root)')) {
      if (fallback === BUILTINS && own(frame).startsWith('node:')) fallback = own(frame);
      const up = parent.get(frame.id);
      frame = up === undefined ? undefined : byId.get(up);
    }
    modules.set(node.id, frame ? own(frame) : fallback);
  }
  return modules;
}

/** Sampled time by the module it counts for (modulesOfNodes), idle time left out; largest first. */
export async function selfTimeByModule(profilePath: string): Promise<ModuleTime[]> {
  const profile = JSON.parse(await readFile(profilePath, 'utf8')) as CpuProfile;
  const moduleOfNode = modulesOfNodes(profile);
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
    ['module (with the Node and V8 internals it calls)', 'µs of CPU per row', 'share'],
    [
      ...times.slice(0, top).map((t) => line(t.module, t.micros)),
      line(`${Math.max(0, times.length - top)} others`, rest),
      line('total', total),
    ],
  );
}
