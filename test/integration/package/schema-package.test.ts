// The two workspace packages as a tool author installs them: each packed alone (`npm pack -w`) and installed from
// its tarball into an empty project, with what that costs held to a budget, checked by publint and by
// are-the-types-wrong, and used from ESM and require(). The schema package must stay light and portable (no Node
// built-in in what it ships); the probe engine package must install no Kubernetes client.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { publint } from 'publint';
import { validateCluster } from '@karmada-cluster-probe/schema';
import { parse } from 'yaml';

const repo = resolve('.');

/**
 * What installing the schema package alone may cost: ajv and its four dependencies, ajv-formats, and the package
 * (7 packages, 1.9 MiB of files when this was written). A new dependency is a deliberate edit of these two numbers.
 */
export const SCHEMA_INSTALL_BUDGET = { packages: 8, bytes: 3 * 1024 * 1024 };

function run(cmd: string, args: string[], cwd: string): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
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

function packAlone(workspace: string, dir: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '-w', workspace, '--pack-destination', dir], {
    cwd: repo,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  if (!packed) throw new Error(`npm pack -w ${workspace} made no tarball`);
  return join(dir, packed.filename);
}

describe('the schema package, installed alone into an empty project', function () {
  this.timeout(300_000);
  let dir: string;
  let tarball: string;

  before(() => {
    // The build the tarball carries (the packages' own tsc runs; the application's is not needed here).
    execFileSync('npm', ['run', '-s', 'build'], { cwd: repo, stdio: 'ignore' });
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

  it('has types that resolve for node16 and bundler consumers (are-the-types-wrong, ESM only)', () => {
    const attw = join(repo, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    // esm-only: the package is ESM; CommonJS loads it through require(esm) (Node >= 20.19), which attw's node16-cjs
    // mode does not model. ./internal/* is the application's, not a public entry point.
    const r = run(
      process.execPath,
      [attw, tarball, '--profile', 'esm-only', '--exclude-entrypoints', './internal/*', '--no-color', '--no-emoji'],
      dir,
    );
    expect(r.code, r.out).to.equal(0);
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

  before(() => {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: repo, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-probe-pkg-'));
    const schema = packAlone('packages/schema', dir);
    const probe = packAlone('packages/probe', dir);
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
});
