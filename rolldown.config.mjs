/**
 * The launcher's bundle (src/cli/entry.ts says why), written to dist/bundle/ by `npm run build`
 * after tsc has checked the types: heap-growth.ts is an entry of its own, so that the launcher loads
 * it before anything else, as it did from dist/src; ps-title.ts too, loaded next (a password on the
 * command line out of ps as early as can be). The TypeScript is read from src/ as the tests
 * read it (the same transform, no types), so the source maps point at src/. The packages and Node's
 * own modules stay outside, loaded as before (src/cjs-packages.ts). Names are kept: an error's class
 * and a stack trace's functions read as in the source.
 */
export default {
  input: {
    'heap-growth': 'src/cli/heap-growth.ts',
    'ps-title': 'src/cli/ps-title.ts',
    'catalog-sync': 'src/cli/entry.ts',
  },
  platform: 'node',
  external: [/^node:/, /^[^./]/],
  logLevel: 'warn',
  output: {
    dir: 'dist/bundle',
    format: 'esm',
    sourcemap: true,
    keepNames: true,
    cleanDir: true,
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
};
