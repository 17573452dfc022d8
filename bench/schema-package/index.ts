// bench/schema-package: what a tool author pays for the schema library, the figures of issue 28 from one script.
// For a checkout (this one, or an older one with --tree DIR, to compare): the package a tool installs to validate
// Clusters (the workspace package packages/schema when the tree has it, else the whole application, which is what a
// tool had to install before) is packed, installed from its tarball into an empty project, and measured: packages and
// bytes installed, and the modules Node loads for `import` of the schema entry (the package's own, its dependencies',
// and Node built-ins). Then the browser bundle sizes (bundle-size.ts) and, with --agreement, the kubeconform and ajv
// agreement table (test/oracle/json-schema-figures.ts; builds kubeconform when missing).
//
//   npx tsx bench/schema-package/index.ts [--tree DIR] [--agreement] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const here = resolve(import.meta.dirname, '../..');
const tree = resolve(flag('--tree') ?? here);

function log(line: string): void {
  process.stderr.write(`bench/schema-package: ${line}\n`);
}

function run(cmd: string, argv: string[], cwd: string): string {
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} (in ${cwd}) failed:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (d.isDirectory()) total += bytesUnder(p);
    else if (d.isFile()) total += statSync(p).size;
  }
  return total;
}

/** Every package directory under node_modules, nested ones included. */
function countPackages(modules: string): number {
  let n = 0;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@')
      ? readdirSync(join(modules, entry.name)).map((s) => join(modules, entry.name, s))
      : [join(modules, entry.name)];
    for (const d of dirs) {
      if (!existsSync(join(d, 'package.json'))) continue;
      n++;
      if (existsSync(join(d, 'node_modules'))) n += countPackages(join(d, 'node_modules'));
    }
  }
  return n;
}

const split = existsSync(join(tree, 'packages', 'schema', 'package.json'));
const work = mkdtempSync(join(tmpdir(), 'bench-schema-package-'));
try {
  log(`building ${tree} and packing ${split ? 'packages/schema' : 'the application'}...`);
  run('npm', ['run', '-s', 'build'], tree);
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', work];
  if (split) packArgs.push('-w', 'packages/schema');
  const packOut = run('npm', packArgs, tree);
  const [packed] = JSON.parse(packOut.slice(packOut.indexOf('['))) as { filename: string; name: string }[];
  if (!packed) throw new Error('npm pack made no tarball');
  const spec = split ? packed.name : `${packed.name}/schema`;
  const project = join(work, 'tool');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true }));
  log(`installing ${packed.filename} into an empty project...`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], project);
  const modules = join(project, 'node_modules');

  // The modules Node loads for `import(spec)`: ES modules by a loader hook that writes every URL it loads, CommonJS
  // ones (ajv) from require's cache, Node built-ins from process.moduleLoadList against a run that imports nothing.
  const loadedTxt = join(project, 'loaded.txt');
  writeFileSync(
    join(project, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(loadedTxt)}, url + '\\n'); return next(url, context); }`,
  );
  writeFileSync(
    join(project, 'register.mjs'),
    `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
  );
  const report = `import { createRequire } from 'node:module';
const natives = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ') && !m.includes('internal/')).map((m) => m.slice(13));
console.log(JSON.stringify({ cjs: Object.keys(createRequire(import.meta.url).cache), natives }));`;
  writeFileSync(join(project, 'baseline.mjs'), report);
  writeFileSync(join(project, 'main.mjs'), `await import(${JSON.stringify(spec)});\n${report}`);
  type Seen = { cjs: string[]; natives: string[] };
  const baseline = JSON.parse(
    run(process.execPath, ['--no-warnings', '--import', './register.mjs', 'baseline.mjs'], project),
  ) as Seen;
  writeFileSync(loadedTxt, '');
  const seen = JSON.parse(
    run(process.execPath, ['--no-warnings', '--import', './register.mjs', 'main.mjs'], project),
  ) as Seen;
  const esm = [...new Set(readFileSync(loadedTxt, 'utf8').trim().split('\n'))]
    .filter((u) => u.startsWith('file:') && !u.endsWith('/main.mjs'))
    .map((u) => new URL(u).pathname);
  const files = [...new Set([...esm, ...seen.cjs])];
  const builtins = seen.natives.filter((m) => !baseline.natives.includes(m));
  const ownPrefix = `/node_modules/${packed.name}/`;
  const own = files.filter((u) => u.includes(ownPrefix));
  const figures = {
    tree,
    package: packed.name,
    import: spec,
    tarballBytes: statSync(join(work, packed.filename)).size,
    installed: { packages: countPackages(modules), bytes: bytesUnder(modules) },
    loadedByImport: {
      files: files.length,
      ofThePackage: own.length,
      ofDependencies: files.length - own.length,
      nodeBuiltins: builtins.sort(),
    },
  };
  const out: Record<string, unknown> = { install: figures };
  if (existsSync(join(tree, 'bench', 'schema-package', 'bundle-size.ts'))) {
    log('browser bundles (bundle-size.ts)...');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join('bench', 'schema-package', 'bundle-size.ts')], {
      cwd: tree,
      encoding: 'utf8',
    });
    out.bundles = r.stdout.trim() ? (JSON.parse(r.stdout) as unknown) : { error: r.stderr.trim() };
  }
  if (args.includes('--agreement')) {
    log('kubeconform and ajv agreement (test/oracle/json-schema-figures.ts)...');
    const r = spawnSync(process.execPath, ['--import', 'tsx', join('test', 'oracle', 'json-schema-figures.ts')], {
      cwd: tree,
      encoding: 'utf8',
    });
    out.agreement = r.status === 0 ? r.stdout.trim() : { error: r.stderr.trim() };
  }
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const i = figures.installed;
    const l = figures.loadedByImport;
    console.log(`tree: ${tree}`);
    console.log(`package installed for validation: ${packed.name} (import '${spec}')`);
    console.log(
      `installed: ${i.packages} packages, ${(i.bytes / 1024 / 1024).toFixed(1)} MiB (tarball ${figures.tarballBytes} bytes)`,
    );
    console.log(
      `import loads: ${l.files} modules (${l.ofThePackage} of the package, ${l.ofDependencies} of dependencies), ` +
        `${l.nodeBuiltins.length} Node built-ins${l.nodeBuiltins.length > 0 ? ` (${l.nodeBuiltins.join(', ')})` : ''}`,
    );
    if (out.bundles !== undefined) console.log(`browser bundles: ${JSON.stringify(out.bundles)}`);
    if (typeof out.agreement === 'string') console.log(out.agreement);
    else if (out.agreement !== undefined) console.log(`agreement: ${JSON.stringify(out.agreement)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
