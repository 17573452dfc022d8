// docs/library.md, run: every snippet of the page against the schema package packed from this checkout and installed
// from its tarball into an empty project, as a tool author would. A fence's info string says what to do with it:
//   ```sh install        the install command: must name the package; the tarball is installed in its place
//   ```<lang> file=PATH  written to PATH in the project before anything runs
//   ```js run=esm|cjs    run with node; a ```text output block right after it is the exact stdout
//   ```ts run=tsc        type-checked with tsc under nodenext and under bundler (its @ts-expect-error lines must fail)
//   ```sh run=sh         run with sh, node_modules/.bin and kubeconform (built from its pinned module) on PATH
// A yaml-language-server modeline in a written file must name a schema file the package ships.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repo = resolve('.');
const DOC = join(repo, 'docs', 'library.md');

interface Block {
  lang: string;
  attrs: string[];
  body: string;
  /** The ```text output block right after this one, if any. */
  output?: string;
  line: number;
}

function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const re = /^```(\S*)([^\n]*)\n([\s\S]*?)^```\s*$/gm;
  for (const m of markdown.matchAll(re)) {
    const attrs = (m[2] ?? '').trim().split(/\s+/).filter(Boolean);
    const block: Block = {
      lang: m[1] ?? '',
      attrs,
      body: m[3] ?? '',
      line: markdown.slice(0, m.index).split('\n').length,
    };
    const previous = blocks.at(-1);
    if (block.lang === 'text' && attrs.includes('output') && previous !== undefined) previous.output = block.body;
    else blocks.push(block);
  }
  return blocks;
}

const attr = (b: Block, key: string): string | undefined =>
  b.attrs.find((a) => a.startsWith(`${key}=`))?.slice(key.length + 1);

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('docs/library.md, every snippet run against the packed schema package', function () {
  this.timeout(600_000);
  const blocks = blocksOf(readFileSync(DOC, 'utf8'));
  let dir: string;
  let kubeconformDir: string;

  before(() => {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: repo, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-library-doc-'));
    const out = execFileSync(
      'npm',
      ['pack', '--json', '--ignore-scripts', '-w', 'packages/schema', '--pack-destination', dir],
      { cwd: repo, encoding: 'utf8' },
    );
    const [packed] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string; name: string }[];
    if (!packed) throw new Error('npm pack made no tarball');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tool', version: '1.0.0', private: true }));
    const install = blocks.find((b) => b.attrs.includes('install'));
    expect(install, 'the page has an install block').not.to.equal(undefined);
    expect(install?.body.trim()).to.equal(`npm install ${packed.name}`);
    const r = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, packed.filename)], dir);
    expect(r.code, r.stderr).to.equal(0);
    for (const b of blocks) {
      const path = attr(b, 'file');
      if (path === undefined) continue;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), b.body);
    }
    const kubeconform = execFileSync(process.execPath, [join(repo, 'scripts', 'build-kubeconform.mjs')], {
      cwd: repo,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    expect(existsSync(kubeconform), `kubeconform at ${kubeconform}`).to.equal(true);
    kubeconformDir = dirname(kubeconform);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('has snippets of every kind it promises', () => {
    const kinds = blocks.map((b) => attr(b, 'run')).filter((k) => k !== undefined);
    expect(kinds).to.include.members(['esm', 'cjs', 'tsc', 'sh']);
    expect(blocks.filter((b) => b.output !== undefined).length).to.be.greaterThan(2);
  });

  for (const [i, b] of blocks.entries()) {
    const kind = attr(b, 'run');
    if (kind === undefined) continue;
    it(`runs the ${kind} snippet at line ${b.line}${b.output !== undefined ? ' and prints what the page shows' : ''}`, () => {
      if (kind === 'esm' || kind === 'cjs') {
        const file = `snippet-${i}.${kind === 'esm' ? 'mjs' : 'cjs'}`;
        writeFileSync(join(dir, file), b.body);
        const r = run(process.execPath, ['--no-warnings', file], dir);
        expect(r.code, r.stderr).to.equal(0);
        if (b.output !== undefined) expect(r.stdout).to.equal(b.output);
      } else if (kind === 'tsc') {
        writeFileSync(join(dir, `snippet-${i}.mts`), b.body);
        const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
        for (const resolution of ['nodenext', 'node16', 'bundler']) {
          // A consumer's own settings: strict, no Node types (the library needs none), the package's types checked.
          const options = {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
            lib: ['es2022'],
            module: resolution === 'bundler' ? 'esnext' : resolution,
            moduleResolution: resolution,
          };
          writeFileSync(
            join(dir, `tsconfig.${resolution}.json`),
            JSON.stringify({ compilerOptions: options, files: [`snippet-${i}.mts`] }),
          );
          const r = run(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], dir);
          expect(`${r.stdout}${r.stderr}`, resolution).to.equal('');
          expect(r.code).to.equal(0);
        }
        // The @ts-expect-error lines are checked too: without them tsc must fail, so the types really were read.
        writeFileSync(join(dir, `snippet-${i}-bare.mts`), b.body.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
        const bare = run(
          process.execPath,
          [tsc, '--noEmit', '--strict', '--module', 'nodenext', `snippet-${i}-bare.mts`],
          dir,
        );
        expect(bare.code).not.to.equal(0);
      } else if (kind === 'sh') {
        const env = {
          ...process.env,
          PATH: `${join(dir, 'node_modules', '.bin')}:${join(repo, 'node_modules', '.bin')}:${kubeconformDir}:${process.env.PATH ?? ''}`,
        };
        const r = run('sh', ['-ec', b.body], dir, env);
        expect(r.code, `${r.stdout}${r.stderr}`).to.equal(0);
        if (b.body.includes('kubeconform')) {
          expect(r.stdout).to.match(/member-bad\.yaml - Cluster member-bad is invalid/);
          expect(r.stdout).not.to.match(/member-dev\.yaml.*invalid/);
          expect(r.stdout).to.match(/exit status 1/);
        }
        if (b.body.includes('esbuild')) {
          const bundle = readFileSync(join(dir, 'dist', 'app.js'), 'utf8');
          expect(bundle).not.to.match(/from\s*"node:|require\("/);
          expect(bundle.length).to.be.greaterThan(10_000);
        }
      } else {
        expect.fail(`unknown run=${kind} at line ${b.line}`);
      }
    });
  }

  it('names, in each yaml-language-server modeline, a schema the package ships', () => {
    const modelined = blocks.filter((b) => /^# yaml-language-server: \$schema=/.test(b.body));
    expect(modelined.length).to.be.greaterThan(0);
    for (const b of modelined) {
      const path = attr(b, 'file');
      expect(path, `the modeline block at line ${b.line} is written to a file`).not.to.equal(undefined);
      const target = /\$schema=(\S+)/.exec(b.body)?.[1] ?? '';
      const schemaFile = resolve(dir, dirname(path ?? ''), target);
      expect(existsSync(schemaFile), schemaFile).to.equal(true);
      const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { $schema?: string };
      expect(schema.$schema).to.match(/json-schema\.org/);
    }
  });
});
