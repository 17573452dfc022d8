// bench/schema-package/bundle-size: what a browser tool pays for the schema library, bundled by esbuild as a tool
// author bundles it (minify, platform browser, format esm, tree shaking): (a) an entry that imports only
// validateCluster, (b) an entry that imports only two constants (the group name and the legacy annotation's name).
// Each is bundled twice: as the repository stands (esbuild honours `"sideEffects"` of the package.json above each
// file, the root one here), and with every src/ module marked side-effect free by a plugin (what `"sideEffects": false`
// in package.json does), so the gain of that flag shows before it is set. Prints raw and gzip bytes as JSON.
// `node:*` imports are left external and listed (`nodeBuiltins`), so the figure exists before the library is free of
// them: a bundle with any is one a browser cannot load (test/browser/ is the judge of that, with nothing external).
// Usage: npx tsx bench/schema-package/bundle-size.ts
import { build, version, type Plugin } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const repo = path.resolve(import.meta.dirname, '../..');
/** The schema library's sources: the workspace package, or src/ in a tree from before it (to compare, run this file there). */
const LIBRARY = existsSync(path.join(repo, 'packages', 'schema', 'src')) ? 'packages/schema/src' : 'src';
const ENTRY = `./${LIBRARY}/schema/index.ts`;
const ENTRIES = {
  validateCluster: `export { validateCluster } from '${ENTRY}';\n`,
  twoConstants: `export { GROUP, LEGACY_ANNOTATION } from '${ENTRY}';\n`,
} as const;

/** Marks every module of the library side-effect free, as `"sideEffects": false` in the package's package.json would. */
const srcSideEffectFree: Plugin = {
  name: 'src-side-effect-free',
  setup(b) {
    const src = path.join(repo, LIBRARY) + path.sep;
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      if (r.errors.length > 0 || !r.path.startsWith(src)) return undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};

interface Size {
  bytes: number;
  gzipBytes: number;
  /** Modules of the repository and of node_modules in the bundle. */
  modules: number;
  /** node:* modules the bundle still imports (left external). */
  nodeBuiltins: string[];
}

async function bundle(contents: string, sideEffectFree: boolean): Promise<Size | { error: string }> {
  try {
    const result = await build({
      stdin: { contents, resolveDir: repo, sourcefile: 'entry.ts', loader: 'ts' },
      bundle: true,
      minify: true,
      treeShaking: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: repo,
      external: ['node:*'],
      plugins: sideEffectFree ? [srcSideEffectFree] : [],
    });
    const js = result.outputFiles[0]?.contents ?? new Uint8Array();
    const output = Object.values(result.metafile.outputs)[0];
    return {
      bytes: js.length,
      gzipBytes: gzipSync(js, { level: 9 }).length,
      modules: Object.keys(output?.inputs ?? {}).filter((i) => i !== 'entry.ts').length,
      nodeBuiltins: [...new Set((output?.imports ?? []).filter((i) => i.external).map((i) => i.path))].sort(),
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

const pkg = JSON.parse(
  readFileSync(path.join(repo, LIBRARY === 'src' ? 'package.json' : 'packages/schema/package.json'), 'utf8'),
) as { sideEffects?: unknown };
const out: Record<string, unknown> = {
  esbuild: version,
  options: 'bundle, minify, treeShaking, platform browser, format esm, target es2022; gzip level 9',
  packageJsonSideEffects: pkg.sideEffects ?? null,
};
let failed = false;
for (const [name, contents] of Object.entries(ENTRIES)) {
  const asIs = await bundle(contents, false);
  const sideEffectFree = await bundle(contents, true);
  failed ||= 'error' in asIs || 'error' in sideEffectFree;
  out[name] = { entry: contents.trim(), asIs, srcSideEffectFree: sideEffectFree };
}
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
if (failed) process.exitCode = 1;
