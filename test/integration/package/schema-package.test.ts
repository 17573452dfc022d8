// The two workspace packages as a tool author installs them: each packed alone (`npm pack -w`) and installed from
// its tarball into an empty project, with what that costs held to a budget, checked by publint and by
// are-the-types-wrong, used from ESM and require() (on Node 20 and, when cached, Node 24, with nothing on stderr) and
// from TypeScript under each setting docs/library.md lists. The schema package must stay light and portable (no Node
// built-in in what it ships); the probe engine package must install no Kubernetes client. And the three tarballs as
// published (the application's too): README and LICENSE, no dangling source map reference, where they come from and
// which Node they run on, publint on the tarball itself; the workspaces' prepack builds them from a clean dist.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { publint } from 'publint';
import { validateCluster } from '@karmada-cluster-probe/schema';
import { parse } from 'yaml';

const repo = resolve('.');
const REPO_URL = 'https://github.com/karmada-cluster-probe/karmada-cluster-probe';
/**
 * Node.js 20.19+ and 22.12+, where require(esm) is on by default and JSON modules load without a warning; 22.0-22.11
 * fail require() of the package (ERR_REQUIRE_ESM) and warn on its JSON imports.
 */
const ENGINES = '^20.19.0 || >=22.12.0';
const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * What installing the schema package alone may cost: ajv and its four dependencies, ajv-formats, and the package
 * (7 packages, 1.9 MiB of files when this was written). A new dependency is a deliberate edit of these two numbers.
 */
export const SCHEMA_INSTALL_BUDGET = { packages: 8, bytes: 3 * 1024 * 1024 };

function run(cmd: string, args: string[], cwd: string): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/**
 * are-the-types-wrong on a packed tarball: the strict profile but cjs-resolves-to-esm (see the schema package's test
 * for why); ./internal/* is the application's, not a public entry point.
 */
function attwStrict(tarball: string, cwd: string): { code: number | null; out: string } {
  const attw = join(repo, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
  const args = ['--profile', 'strict', '--ignore-rules', 'cjs-resolves-to-esm'];
  return run(
    process.execPath,
    [attw, tarball, ...args, '--exclude-entrypoints', './internal/*', '--no-color', '--no-emoji'],
    cwd,
  );
}

/** Every installed package under node_modules (scoped ones included), by name. */
function installedPackages(modules: string): string[] {
  const names: string[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(join(modules, entry))) names.push(`${entry}/${scoped}`);
    } else names.push(entry);
  }
  return names;
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

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? jsFiles(join(dir, d.name)) : d.name.endsWith('.js') ? [join(dir, d.name)] : [],
  );
}

let built = false;
/** `npm run build` once for the whole file (the packages' own tsc runs and the application's). */
function buildOnce(): void {
  if (built) return;
  execFileSync('npm', ['run', '-s', 'build'], { cwd: repo, stdio: 'ignore' });
  built = true;
}

/** `npm pack` of a workspace ('.': the application) into dir; with scripts, its prepack (or prepare) runs first. */
function packAlone(workspace: string, dir: string, { scripts = false } = {}): string {
  const args = ['pack', '--json', ...(scripts ? [] : ['--ignore-scripts']), '--pack-destination', dir];
  const out = execFileSync('npm', workspace === '.' ? args : [...args, '-w', workspace], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  if (!packed) throw new Error(`npm pack -w ${workspace} made no tarball`);
  return join(dir, packed.filename);
}

/** Every file under dir, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)));
}

/** Every `//# sourceMappingURL=` of a .js file under dir whose target is not a file under dir, as `file -> target`. */
function danglingSourceMaps(dir: string): string[] {
  return filesUnder(dir)
    .filter((f) => f.endsWith('.js'))
    .flatMap((f) =>
      [...readFileSync(join(dir, f), 'utf8').matchAll(/^\/\/# sourceMappingURL=(\S+)\s*$/gm)]
        .map((m) => m[1] ?? '')
        .filter((target) => !target.startsWith('data:') && !existsSync(join(dir, dirname(f), target)))
        .map((target) => `${f} -> ${target}`),
    );
}

interface Example {
  kind: 'esm' | 'cjs';
  body: string;
  output: string | undefined;
  line: number;
}

/** The ```js run=esm|cjs blocks of a README, each with the ```text output block right after it (library.md's form). */
function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const m of markdown.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```\s*$/gm)) {
    const attrs = (m[2] ?? '').trim().split(/\s+/);
    const kind = attrs.find((a) => a.startsWith('run='))?.slice(4);
    const previous = examples.at(-1);
    if (m[1] === 'text' && attrs.includes('output') && previous) previous.output = m[3];
    else if (kind === 'esm' || kind === 'cjs') {
      examples.push({ kind, body: m[3] ?? '', output: undefined, line: markdown.slice(0, m.index).split('\n').length });
    }
  }
  return examples;
}

/** Runs each example of the installed package's README in dir with node (no --no-warnings): its exact output, no stderr. */
function runReadmeExamples(dir: string, name: string): void {
  const examples = examplesOf(readFileSync(join(dir, 'node_modules', name, 'README.md'), 'utf8'));
  expect(examples.length, `${name}'s README has examples`).to.be.greaterThan(0);
  for (const [i, e] of examples.entries()) {
    const file = `readme-${i}.${e.kind === 'esm' ? 'mjs' : 'cjs'}`;
    writeFileSync(join(dir, file), e.body);
    const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, `README line ${e.line}: ${r.stderr}`).to.equal(0);
    expect(r.stderr, `README line ${e.line}`).to.equal('');
    expect(e.output, `README line ${e.line} shows its output`).to.be.a('string');
    expect(r.stdout, `README line ${e.line}`).to.equal(e.output);
  }
}

/** Type-checks index.ts (written into a fresh directory under dir) with these compiler options; the error codes. */
function compile(dir: string, name: string, type: 'module' | 'commonjs', source: string, options: object): string[] {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'package.json'), JSON.stringify({ name, private: true, type }));
  writeFileSync(join(at, 'index.ts'), source);
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['es2022'], ...options };
  writeFileSync(join(at, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['index.ts'] }));
  const r = run(process.execPath, [tsc, '-p', 'tsconfig.json'], at);
  return r.out.split('\n').flatMap((l) => /error (TS\d+)/.exec(l)?.[1] ?? []);
}

/** The Node 24 scripts/node24.mjs caches (or $CLUSTER_PROBE_NODE24), if it is there; never downloaded here. */
async function cachedNode24(): Promise<string | undefined> {
  const node24 = (await import(pathToFileURL(join(repo, 'scripts', 'node24.mjs')).href)) as {
    NODE24_VERSION: string;
    node24Dir(): string;
  };
  const binary = process.env.CLUSTER_PROBE_NODE24 || join(node24.node24Dir(), 'bin', 'node');
  if (!existsSync(binary)) return undefined;
  const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  return version.startsWith('v24.') ? binary : undefined;
}

/** Loads every given entry point from ESM and from require() with this node; stdout and stderr of each. */
function loadEntryPoints(
  node: string,
  dir: string,
  specifiers: string[],
): { file: string; stdout: string; stderr: string }[] {
  writeFileSync(
    join(dir, 'entries.mjs'),
    specifiers.map((s, i) => `import * as m${i} from '${s}';\n`).join('') +
      `console.log(${specifiers.map((_, i) => `Object.keys(m${i}).length`).join(', ')});\n`,
  );
  writeFileSync(
    join(dir, 'entries.cjs'),
    `console.log(${specifiers.map((s) => `Object.keys(require('${s}')).length`).join(', ')});\n`,
  );
  return ['entries.mjs', 'entries.cjs'].map((file) => {
    const r = spawnSync(node, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, `${node} ${file}: ${r.stderr}`).to.equal(0);
    return { file, stdout: r.stdout, stderr: r.stderr };
  });
}

describe('the schema package, installed alone into an empty project', function () {
  this.timeout(300_000);
  let dir: string;
  let tarball: string;

  before(() => {
    // The build the tarball carries (the packages' own tsc runs; the application's is not needed here).
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-schema-pkg-'));
    tarball = packAlone('packages/schema', dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true }));
    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], dir);
    expect(install.code, install.out).to.equal(0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(`installs at most ${SCHEMA_INSTALL_BUDGET.packages} packages and ${SCHEMA_INSTALL_BUDGET.bytes / 1024 / 1024} MiB`, () => {
    const modules = join(dir, 'node_modules');
    const names = installedPackages(modules);
    expect(names).to.include('@karmada-cluster-probe/schema');
    expect(names).not.to.include('@kubernetes/client-node');
    expect(names.length, names.join(', ')).to.be.at.most(SCHEMA_INSTALL_BUDGET.packages);
    expect(bytesUnder(modules)).to.be.at.most(SCHEMA_INSTALL_BUDGET.bytes);
  });

  it('ships no Node built-in import and no Node global in its runtime', () => {
    const dist = join(dir, 'node_modules', '@karmada-cluster-probe', 'schema', 'dist');
    const files = jsFiles(dist);
    expect(files.length).to.be.greaterThan(10);
    for (const file of files) {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      expect(code, file).not.to.match(/from\s+['"](node:|fs['"]|net['"]|crypto['"]|util['"]|url['"])/);
      expect(code, file).not.to.match(/\b(Buffer|process|require)\s*[.(]/);
    }
  });

  it('validates from ESM and from require() as the library does in this repository', () => {
    const fixture = parse(readFileSync(join(repo, 'test/fixtures/clusters/invalid-probe.yaml'), 'utf8')) as unknown;
    const expected = validateCluster(fixture).errors.map((e) => e.message);
    expect(expected.length).to.be.greaterThan(0);
    writeFileSync(join(dir, 'cluster.json'), JSON.stringify(fixture));
    const body = `const c = JSON.parse(fs.readFileSync('cluster.json', 'utf8'));
console.log(JSON.stringify(lib.validateCluster(c).errors.map((e) => e.message)));`;
    writeFileSync(
      join(dir, 'esm.mjs'),
      `import * as lib from '@karmada-cluster-probe/schema';\nimport fs from 'node:fs';\n${body}`,
    );
    writeFileSync(
      join(dir, 'cjs.cjs'),
      `const lib = require('@karmada-cluster-probe/schema');\nconst fs = require('node:fs');\n${body}`,
    );
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const r = spawnSync(process.execPath, ['--no-warnings', file], { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      expect(JSON.parse(r.stdout) as unknown, file).to.deep.equal(expected);
    }
  });

  it('is clean for publint', async () => {
    const { messages } = await publint({ pkgDir: join(repo, 'packages', 'schema'), level: 'suggestion' });
    expect(messages).to.deep.equal([]);
  });

  it('runs the examples of its README as shown, with nothing on stderr', () => {
    runReadmeExamples(dir, '@karmada-cluster-probe/schema');
  });

  it('has types that resolve for node10, node16 and bundler consumers (are-the-types-wrong)', () => {
    // The strict profile (every resolution: node10, node16 from CJS and from ESM, bundler) but one rule:
    // cjs-resolves-to-esm, which is node16-cjs saying "ESM (dynamic import only)". The package is ESM only, and
    // CommonJS loads it through require(esm) (every Node `engines` admits; TypeScript models it from 5.8 under
    // `module: nodenext`), which attw does not model. The node16 and esm-only profiles would drop node10, which
    // typesVersions now serves. ./internal/* is the application's, not a public entry point.
    const r = attwStrict(tarball, dir);
    expect(r.code, r.out).to.equal(0);
  });

  it('resolves /api and /address for a TypeScript consumer on moduleResolution node10, module commonjs', () => {
    const source = `import { validateCluster } from '@karmada-cluster-probe/schema';
import { GROUP, type LivenessProbe } from '@karmada-cluster-probe/schema/api';
import { parseCidr } from '@karmada-cluster-probe/schema/address';
export const probe: LivenessProbe = { tcpSocket: { port: 6443 } };
export const out: [boolean, string, string] = [validateCluster({}).valid, GROUP, typeof parseCidr];
`;
    const node10 = { module: 'commonjs', moduleResolution: 'node10' };
    expect(compile(dir, 'ts-node10', 'commonjs', source, node10)).to.deep.equal([]);
    // The deliberate type error proves tsc read our types rather than `any`.
    const wrong = `${source}export const bad: LivenessProbe = { tcpSocket: { port: true } };\n`;
    expect(compile(dir, 'ts-node10-wrong', 'commonjs', wrong, node10)).to.deep.equal(['TS2322']);
  });

  it("holds docs/library.md's TypeScript settings table: each row compiled against the tarball", () => {
    const doc = readFileSync(join(repo, 'docs', 'library.md'), 'utf8');
    const section = doc.slice(
      doc.indexOf('### TypeScript settings'),
      doc.indexOf('\n## ', doc.indexOf('### TypeScript settings')),
    );
    const rows = [...section.matchAll(/^\| `(\w+)` \| `(\w+)` \| (ESM|CommonJS) \| (.+) \|$/gm)];
    expect(rows.length, section).to.be.at.least(8);
    expect(rows.map((r) => r[1])).to.include.members(['bundler', 'nodenext', 'node16', 'node10']);
    const source = `import { validateCluster, type LivenessProbe } from '@karmada-cluster-probe/schema';
import { GROUP } from '@karmada-cluster-probe/schema/api';
import { parseCidr } from '@karmada-cluster-probe/schema/address';
export const probe: LivenessProbe = { tcpSocket: { port: 6443 } };
export const out: [boolean, string, string] = [validateCluster({}).valid, GROUP, typeof parseCidr];
`;
    for (const [i, [, moduleResolution, module, file, result]] of rows.entries()) {
      const row = `${moduleResolution} / ${module} / ${file}: ${result}`;
      const type = file === 'ESM' ? 'module' : 'commonjs';
      const errors = compile(dir, `ts-row-${i}`, type, source, { module, moduleResolution });
      const code = /^(TS\d+)/.exec(result ?? '')?.[1];
      if (code) expect([...new Set(errors)], row).to.deep.equal([code]);
      else {
        expect(result, row).to.match(/^works/);
        expect(errors, row).to.deep.equal([]);
      }
    }
  });
});

describe('the three packages, one version', () => {
  const manifest = (dir: string) =>
    JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      dependencies?: Record<string, string>;
    };
  it("share the application's version, and depend on each other at exactly it", () => {
    const app = manifest('.');
    const schema = manifest('packages/schema');
    const probe = manifest('packages/probe');
    expect([schema.version, probe.version]).to.deep.equal([app.version, app.version]);
    expect(app.dependencies?.[schema.name]).to.equal(app.version);
    expect(app.dependencies?.[probe.name]).to.equal(app.version);
    expect(probe.dependencies?.[schema.name]).to.equal(app.version);
  });
});

describe('the probe engine package, installed alone', function () {
  this.timeout(300_000);
  let dir: string;
  let probeTarball: string;
  let node24: string | undefined;

  before(async () => {
    buildOnce();
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-probe-pkg-'));
    const schema = packAlone('packages/schema', dir);
    const probe = packAlone('packages/probe', dir);
    probeTarball = probe;
    node24 = await cachedNode24();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true }));
    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', schema, probe], dir);
    expect(install.code, install.out).to.equal(0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is clean for publint, as is the application', async () => {
    for (const pkgDir of [join(repo, 'packages', 'probe'), repo]) {
      const { messages } = await publint({ pkgDir, level: 'suggestion' });
      expect(messages, pkgDir).to.deep.equal([]);
    }
  });

  it('installs no Kubernetes client and runs a probe', () => {
    expect(installedPackages(join(dir, 'node_modules'))).not.to.include('@kubernetes/client-node');
    writeFileSync(
      join(dir, 'probe.mjs'),
      `import { runProbe } from '@karmada-cluster-probe/probe';
const r = await runProbe({ tcpSocket: { host: '127.0.0.1', port: 1 }, timeoutSeconds: 1 }, { denyList: [] });
console.log(r.result);`,
    );
    const r = spawnSync(process.execPath, ['probe.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('failure');
  });

  it('runs the examples of its README as shown, with nothing on stderr', () => {
    runReadmeExamples(dir, '@karmada-cluster-probe/probe');
  });

  it('has types that resolve for node10, node16 and bundler consumers (are-the-types-wrong)', () => {
    // As for the schema package: the strict profile but cjs-resolves-to-esm (require(esm), which attw does not model).
    const r = attwStrict(probeTarball, dir);
    expect(r.code, r.out).to.equal(0);
  });

  it('type-checks a TypeScript consumer on node10 (no esModuleInterop) and on nodenext, its declarations included', () => {
    // skipLibCheck off: the engine's declarations import node: modules and the schema package's /api, which node10
    // reaches through the schema package's typesVersions.
    const source = `import { runProbe, ProbeScheduler, type ProbeResult } from '@karmada-cluster-probe/probe';
export const scheduler = new ProbeScheduler();
export const result: Promise<ProbeResult> = runProbe({ tcpSocket: { port: 1 } }, { denyList: [] });
`;
    for (const [module, moduleResolution, type] of [
      ['commonjs', 'node10', 'commonjs'],
      ['nodenext', 'nodenext', 'module'],
      ['nodenext', 'nodenext', 'commonjs'],
    ] as const) {
      const options = { module, moduleResolution, types: ['node'] };
      expect(compile(dir, `ts-${moduleResolution}-${type}`, type, source, options), moduleResolution).to.deep.equal([]);
    }
  });

  const entryPoints = [
    '@karmada-cluster-probe/schema',
    '@karmada-cluster-probe/schema/api',
    '@karmada-cluster-probe/schema/address',
    '@karmada-cluster-probe/probe',
  ];
  it(`loads every entry point from ESM and from require() with nothing on stderr, on Node ${process.versions.node}`, () => {
    for (const r of loadEntryPoints(process.execPath, dir, entryPoints)) {
      expect(r.stderr, r.file).to.equal('');
      expect(r.stdout.trim().split(' ').map(Number), r.file).to.satisfy((counts: number[]) =>
        counts.every((n) => n > 0),
      );
    }
  });

  it('loads every entry point from ESM and from require() with nothing on stderr, on the cached Node 24', function () {
    if (!node24) {
      // Never downloaded here: `npm run test:node24` (scripts/node24.mjs) fetches it into the cache.
      this.skip();
    }
    for (const r of loadEntryPoints(node24, dir, entryPoints)) {
      expect(r.stderr, r.file).to.equal('');
      expect(r.stdout.trim().split(' ').map(Number), r.file).to.satisfy((counts: number[]) =>
        counts.every((n) => n > 0),
      );
    }
  });
});

describe('the three tarballs, as npm pack makes them', function () {
  this.timeout(300_000);
  const workspaces = ['packages/schema', 'packages/probe', '.'];
  let dir: string;
  const tarballs = new Map<string, string>();
  const unpacked = new Map<string, string>();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-tarballs-'));
    // From a clean dist, npm pack of the probe package with its scripts: its prepack builds the whole repository
    // (the engine compiles against the schema package's declarations), as `npm publish -w packages/probe` does.
    execFileSync(process.execPath, [join(repo, 'scripts', 'clean-build.mjs')], { cwd: repo });
    built = false; // no dist now: a later buildOnce() builds again unless the prepack below did
    tarballs.set('packages/probe', packAlone('packages/probe', dir, { scripts: true }));
    built = true;
    tarballs.set('packages/schema', packAlone('packages/schema', dir));
    tarballs.set('.', packAlone('.', dir));
    for (const [ws, tarball] of tarballs) {
      const into = join(dir, `unpacked-${ws.replace(/\W/g, '_')}`);
      mkdirSync(into);
      execFileSync('tar', ['-xzf', tarball, '-C', into, '--no-same-owner']);
      unpacked.set(ws, join(into, 'package'));
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs each workspace's prepack, which builds what is packed from a clean dist", () => {
    for (const ws of ['packages/schema', 'packages/probe']) {
      const pkg = JSON.parse(readFileSync(join(repo, ws, 'package.json'), 'utf8')) as {
        scripts?: Record<string, string>;
      };
      expect(pkg.scripts?.prepack, ws).to.equal('npm run --prefix ../.. build');
    }
    const probe = filesUnder(unpacked.get('packages/probe') ?? '');
    expect(probe).to.include.members(['dist/index.js', 'dist/index.d.ts']);
  });

  for (const ws of workspaces) {
    const where = (): string => unpacked.get(ws) ?? '';
    const manifest = () =>
      JSON.parse(readFileSync(join(where(), 'package.json'), 'utf8')) as {
        name: string;
        repository?: { type?: string; url?: string; directory?: string };
        homepage?: string;
        bugs?: { url?: string };
        keywords?: string[];
        engines?: { node?: string };
      };

    it(`${ws}: ships a README.md of its own and the repository's LICENSE`, () => {
      const files = filesUnder(where());
      expect(files).to.include.members(['README.md', 'LICENSE', 'package.json']);
      const rootLicense = readFileSync(join(repo, 'LICENSE'));
      expect(readFileSync(join(where(), 'LICENSE')).equals(rootLicense), 'LICENSE is the root one').to.equal(true);
      const readme = readFileSync(join(where(), 'README.md'), 'utf8');
      expect(readme.split('\n')[0]).to.equal(`# ${manifest().name}`);
      if (ws !== '.') expect(readme).to.contain(REPO_URL);
    });

    it(`${ws}: has no sourceMappingURL comment whose map is not in the tarball`, () => {
      expect(filesUnder(where()).filter((f) => f.endsWith('.js')).length).to.be.greaterThan(10);
      const dangling = danglingSourceMaps(where());
      expect(dangling, `${dangling.length} dangling, e.g. ${dangling.slice(0, 3).join(', ')}`).to.deep.equal([]);
    });

    it(`${ws}: says where it comes from (repository, homepage, bugs, keywords) and runs on Node ${ENGINES}`, () => {
      const pkg = manifest();
      expect(pkg.repository).to.deep.equal({
        type: 'git',
        url: `git+${REPO_URL}.git`,
        ...(ws === '.' ? {} : { directory: ws }),
      });
      expect(pkg.homepage).to.equal(ws === '.' ? `${REPO_URL}#readme` : `${REPO_URL}/tree/main/${ws}#readme`);
      expect(pkg.bugs).to.deep.equal({ url: `${REPO_URL}/issues` });
      expect(pkg.keywords).to.include.members(['karmada', 'kubernetes']);
      expect(pkg.engines).to.deep.equal({ node: ENGINES });
    });

    it(`${ws}: is clean for publint, run on the tarball itself`, async () => {
      const bytes = readFileSync(tarballs.get(ws) ?? '');
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const { messages } = await publint({ pack: { tarball }, level: 'suggestion' });
      expect(messages).to.deep.equal([]);
    });
  }
});
