// The package as another tool consumes it: `npm pack` of the application and its two workspace packages (the
// application depends on them by version), install the tarballs into a fresh project, then import
// `karmada-cluster-probe/schema` as ESM and with require(), and type-check a TypeScript consumer with tsc.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PUBLIC_EXPORTS } from './public-exports.js';

const repo = resolve('.');

function run(cmd: string, args: string[], cwd: string): { code: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('the packed package, installed into a fresh project', function () {
  this.timeout(300_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-consumer-'));
    const { app, packages } = JSON.parse(
      execFileSync(process.execPath, [join(repo, 'scripts', 'install-packed.mjs'), '--pack', dir], {
        encoding: 'utf8',
      }),
    ) as { app: string; packages: Record<string, string> };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    const install = run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', ...Object.values(packages), app],
      dir,
    );
    expect(install.code, install.out).to.equal(0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const check = `
    const c = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm' },
      spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', livenessProbe: { httpGet: { port: 70000 } } } };
    const r = lib.validateCluster(c);
    console.log(JSON.stringify([r.valid, r.errors.map((e) => e.message), lib.defaultCluster({ spec: { livenessProbe: { tcpSocket: { port: 1 } } } }).spec.livenessProbe.periodSeconds]));
  `;
  const expected = JSON.stringify([
    false,
    ['spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    10,
  ]);

  it('imports karmada-cluster-probe/schema as ESM', () => {
    writeFileSync(join(dir, 'esm.mjs'), `import * as lib from 'karmada-cluster-probe/schema';\n${check}`);
    const r = run(process.execPath, ['esm.mjs'], dir);
    expect(r.out.trim()).to.equal(expected);
  });

  it('loads karmada-cluster-probe/schema with require()', () => {
    writeFileSync(join(dir, 'cjs.cjs'), `const lib = require('karmada-cluster-probe/schema');\n${check}`);
    const r = run(process.execPath, ['cjs.cjs'], dir);
    expect(r.out.replace(/^.*ExperimentalWarning.*\n|^\(Use `node --trace-warnings.*\n/gm, '').trim()).to.equal(
      expected,
    );
  });

  it('resolves the types under tsc, for ESM and CommonJS consumers', () => {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
      }),
    );
    writeFileSync(
      join(dir, 'consumer.mts'),
      `import { validateCluster, type Cluster, type LivenessProbe, type FieldError } from 'karmada-cluster-probe/schema';
const probe: LivenessProbe = { httpGet: { port: 'https', scheme: 'HTTPS' } };
const cluster: Cluster = { metadata: { name: 'm' }, spec: { syncMode: 'Push', livenessProbe: probe } };
const errors: FieldError[] = validateCluster(cluster).errors;
export const fields: string[] = errors.map((e) => e.field);
`,
    );
    writeFileSync(
      join(dir, 'consumer.cts'),
      `import lib = require('karmada-cluster-probe/schema');
export const ok: boolean = lib.validateCluster({}).valid;
`,
    );
    writeFileSync(
      join(dir, 'wrong.mts'),
      `import type { LivenessProbe } from 'karmada-cluster-probe/schema';\nexport const p: LivenessProbe = { httpGet: { port: true } };\n`,
    );
    const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
    const good = run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
    // The deliberate type error proves tsc really checked against our types rather than `any`.
    expect(good.out).to.contain(
      "wrong.mts(2,46): error TS2322: Type 'boolean' is not assignable to type 'string | number'.",
    );
    expect(
      good.out
        .trim()
        .split('\n')
        .filter((l) => l.includes('error')),
    ).to.have.length(1);
  });

  // Every subpath's runtime exports, pinned: adding or removing one is a deliberate edit of public-exports.ts, and
  // ESM and require() must see the same names.
  it('exports exactly the pinned names from every subpath, for ESM and require() alike', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const subpaths = Object.keys(pkg.exports).filter((p) => !p.includes('*') && p !== './package.json');
    expect(subpaths).to.have.members(Object.keys(PUBLIC_EXPORTS));
    const specifiers = subpaths.map((p) =>
      p === '.' ? 'karmada-cluster-probe' : `karmada-cluster-probe/${p.slice(2)}`,
    );
    writeFileSync(
      join(dir, 'names.mjs'),
      `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const out = {};
for (const s of ${JSON.stringify(specifiers)}) {
  const esm = Object.keys(await import(s)).filter((k) => k !== 'default').sort();
  const cjs = Object.keys(require(s)).filter((k) => k !== 'default' && k !== '__esModule').sort();
  out[s] = { esm, cjs };
}
console.log(JSON.stringify(out));
`,
    );
    const r = run(process.execPath, ['names.mjs'], dir);
    const line = r.out.split('\n').find((l) => l.startsWith('{'));
    expect(line, r.out).to.be.a('string');
    const seen = JSON.parse(line ?? '{}') as Record<string, { esm: string[]; cjs: string[] }>;
    subpaths.forEach((p, i) => {
      const got = seen[specifiers[i] ?? ''];
      expect(got?.esm, `${p} (ESM)`).to.deep.equal([...(PUBLIC_EXPORTS[p] ?? [])].sort());
      expect(got?.cjs, `${p} (require)`).to.deep.equal(got?.esm);
    });
  });
});
