import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

/**
 * The layers of src/, top to bottom (docs/architecture.md draws them): a file imports from its own
 * folder or from a layer below its own, never from one above. Folders of one layer may import each
 * other one way only (no cycle between them). An entry is a folder of src/ or a file at its top.
 * A new folder or top-level file must be placed here before its first import is checked.
 */
const LAYERS: readonly (readonly string[])[] = [
  /* commands */ ['cli'],
  /* servers beside the workers */ ['dashboard', 'metrics'],
  /* BullMQ wiring */ ['queue'],
  /* the loop over a chunk's rows */ ['chunks'],
  /* policies the loop asks */ ['guards', 'missing', 'plan', 'revert', 'notify'],
  /* a seller's pauses and quota */ ['sellers'],
  /* one row against the seller's products */ ['sync'],
  /* run records, outcomes, the report */ ['runs'],
  /* the environment read into the edges' settings */ [
    'config.ts',
    'trust-config.ts',
    'keys-file.ts',
    'keys-file-reload.ts',
  ],
  /* the edges */ ['seller-api', 'sources', 'catalog', 'redis', 'net', 'exports', 'sandbox'],
  /* the base: imports nothing above */
  [
    'defaults.ts',
    'interfaces.ts',
    'trust-rules.ts',
    'logger.ts',
    'usage-error.ts',
    'bare-fraction.ts',
    'terminal-safe.ts',
    'async-relay.ts',
    'cjs-packages.ts',
    'count-words.ts',
    'csv-guard.ts',
    'duration.ts',
    'lazy-modules.ts',
    'loopback-host.ts',
    'named-values.ts',
    'output-file.ts',
    'output-check.ts',
    'confined-folder.ts',
    'sole-link.ts',
    'project-root.ts',
    'sale-window.ts',
    'scratch-folder.ts',
    'secret-forms.ts',
    'secret-text.ts',
    'thousands.ts',
  ],
];

const SRC = join(projectRoot(), 'src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** A file's entry in LAYERS: its folder under src/, or its own name at the top of src/. */
function entryOf(file: string): string {
  return relative(SRC, file).split('/')[0] as string;
}

/** Every import of src/ between its files: static, type-only, re-exports and dynamic `import()`. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')));
}

interface Graph {
  files: string[];
  edges: Map<string, string[]>;
}

function readGraph(): Graph {
  const files = sourceFiles(SRC);
  return { files, edges: new Map(files.map((file) => [file, importsOf(file)])) };
}

const rankOf = new Map(LAYERS.flatMap((entries, rank) => entries.map((entry) => [entry, rank] as const)));
const shown = (file: string) => relative(SRC, file);

/** Imports that climb: from a file of one layer to a file of a layer above it. */
function upwardImports(graph: Graph): string[] {
  return [...graph.edges].flatMap(([from, targets]) =>
    targets.flatMap((to) => {
      const a = rankOf.get(entryOf(from));
      const b = rankOf.get(entryOf(to));
      return a !== undefined && b !== undefined && b < a ? [`${shown(from)} -> ${shown(to)}`] : [];
    }),
  );
}

/** The cycles of a graph (Tarjan's strongly connected components of more than one node, or a loop). */
function cycles(nodes: readonly string[], next: (node: string) => readonly string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next(node)) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || next(node).includes(node)) found.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

describe('the layers of src/ (docs/architecture.md)', () => {
  const graph = readGraph();

  it('places every folder and top-level file of src/ in one layer', () => {
    const entries = [...new Set(graph.files.map(entryOf))].sort();
    expect(entries.length).toBeGreaterThan(20);
    expect(entries.filter((entry) => !rankOf.has(entry))).toEqual([]);
    // Each entry is named once, and names something that exists.
    expect(LAYERS.flat().length).toBe(rankOf.size);
    expect([...rankOf.keys()].filter((entry) => !entries.includes(entry))).toEqual([]);
  });

  it('reads the imports it checks, type-only and dynamic ones included', () => {
    const imports = [...graph.edges.values()].flat();
    expect(imports.length).toBeGreaterThan(1000);
    const main = join(SRC, 'cli', 'main.ts');
    expect(graph.edges.get(main)).toContain(join(SRC, 'cli', 'commands', 'run.ts'));
    // Every import names a file of src/ that is there.
    expect(imports.filter((file) => !graph.files.includes(file)).map(shown)).toEqual([]);
  });

  it('has no import from a layer to one above it', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no cycle between the folders of a layer', () => {
    const folderEdges = new Map<string, Set<string>>();
    for (const [from, targets] of graph.edges) {
      for (const to of targets) {
        const a = entryOf(from);
        const b = entryOf(to);
        if (a === b) continue;
        folderEdges.set(a, (folderEdges.get(a) ?? new Set()).add(b));
      }
    }
    const folders = [...rankOf.keys()];
    expect(cycles(folders, (folder) => [...(folderEdges.get(folder) ?? [])])).toEqual([]);
  });

  it('has no cycle between files, type-only imports included', () => {
    expect(cycles(graph.files, (file) => graph.edges.get(file) ?? []).map((c) => c.map(shown))).toEqual([]);
  });
});
