import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bullmq, commander, iconv, ioredis, pino } from '../../src/cjs-packages.js';
import { projectRoot } from '../../src/project-root.js';

const SRC = join(projectRoot(), 'src');
const REQUIRED = new Set(['bullmq', 'ioredis', 'commander', 'pino', 'iconv-lite']);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `import`s of those packages that bring a value (not `import type`), and any `import()` of them. */
function valueImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      const from = node.moduleSpecifier;
      const clause = ts.isImportDeclaration(node) ? node.importClause : node;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (ts.isImportClause(clause) &&
            clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (from && ts.isStringLiteral(from) && REQUIRED.has(from.text) && !typeOnly) {
        found.push(`${relative(SRC, file)}: ${node.getText().split('\n')[0]}`);
      }
    }
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      ts.isStringLiteral(node.arguments[0] as ts.Node) &&
      REQUIRED.has((node.arguments[0] as ts.StringLiteral).text)
    ) {
      found.push(`${relative(SRC, file)}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the CommonJS packages, required (src/cjs-packages.ts)', () => {
  it('are imported by src/ for their types only: their values come from cjs-packages.ts', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => valueImports(file))).toEqual([]);
  });

  it('finds a value import or an import(), and lets a type-only import through', () => {
    const probe = [
      "import { Queue } from 'bullmq';",
      "import type { Redis } from 'ioredis';",
      "import { type Job } from 'bullmq';",
      "const later = () => import('ioredis');",
    ].join('\n');
    expect(valueImports(join(SRC, 'probe.ts'), probe)).toEqual([
      "probe.ts: import { Queue } from 'bullmq';",
      "probe.ts: import('ioredis')",
    ]);
  });

  it('are the packages themselves, the very modules a test importing them gets', async () => {
    const [imported, importedRedis, importedCommander, importedPino, importedIconv] = await Promise.all([
      import('bullmq'),
      import('ioredis'),
      import('commander'),
      import('pino'),
      import('iconv-lite'),
    ]);
    expect(bullmq().Queue).toBe(imported.Queue);
    expect(bullmq().Worker).toBe(imported.Worker);
    expect(bullmq().Job).toBe(imported.Job);
    expect(bullmq().DelayedError).toBe(imported.DelayedError);
    expect(bullmq().RateLimitError).toBe(imported.RateLimitError);
    expect(bullmq().getNextMillis).toBe(imported.getNextMillis);
    expect(ioredis().Redis).toBe(importedRedis.Redis);
    expect(ioredis().Cluster).toBe(importedRedis.Cluster);
    expect(commander().Command).toBe(importedCommander.Command);
    expect(commander().CommanderError).toBe(importedCommander.CommanderError);
    expect(pino()).toBe(importedPino.pino);
    expect(iconv().decode).toBe(importedIconv.default.decode);
    // Loaded once: every call gives the same exports.
    expect(bullmq()).toBe(bullmq());
  });
});
