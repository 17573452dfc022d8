// `kubectl karmada-probe`: the krew plugin manifest that `cluster-probe manifests --krew-archive` generates, held to
// krew itself (sigs.k8s.io/krew v0.4.3, its validate-krew-manifest and krew commands built from the Go module proxy
// into the cache): the manifest validates, `krew install --manifest --archive` installs it into a fresh KREW_ROOT,
// and kubectl then runs `kubectl karmada-probe status --help` through the link krew made. The archive has the release
// layout (the launcher `manifests --krew-launcher` prints, beside app/); its app/ here runs this checkout's CLI from source, where a release
// holds scripts/install-packed.mjs's tree (docs/release.md).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import { KREW_BIN, KREW_PLUGIN_NAME } from '../../src/deploy/krew.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** krew's own code is the judge; this version's module is the one the Go module proxy serves. */
const KREW_MODULE = 'sigs.k8s.io/krew@v0.4.3';
const KREW_BIN_DIR = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'karmada-cluster-probe',
  'krew',
  KREW_MODULE.split('@')[1]!,
);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, cwd = REPO) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 600_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

describe(`kubectl ${KREW_PLUGIN_NAME}: the krew manifest, validated and installed by krew (e2e)`, function () {
  this.timeout(900_000);
  let dir: string;

  before(function () {
    if (!existsSync(join(KREW_BIN_DIR, 'krew')) || !existsSync(join(KREW_BIN_DIR, 'validate-krew-manifest'))) {
      process.stderr.write(`      building ${KREW_MODULE} (krew, validate-krew-manifest) into ${KREW_BIN_DIR}\n`);
      mkdirSync(KREW_BIN_DIR, { recursive: true });
      const r = run(
        'go',
        [
          'install',
          `${KREW_MODULE.replace('@', '/cmd/krew@')}`,
          `${KREW_MODULE.replace('@', '/cmd/validate-krew-manifest@')}`,
        ],
        { ...process.env, GOBIN: KREW_BIN_DIR, GOFLAGS: '-mod=mod' },
        tmpdir(),
      );
      expect(r.code, r.out).to.equal(0);
    }
    dir = mkdtempSync(join(tmpdir(), 'krew-plugin-'));
  });

  after(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('generates a manifest krew validates and installs; kubectl runs the plugin by its name', () => {
    // The archive: the launcher as released, and app/bin/cluster-probe.js running this checkout's CLI.
    const content = join(dir, 'content');
    mkdirSync(join(content, 'app', 'bin'), { recursive: true });
    const launcher = run(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'manifests', '--krew-launcher']);
    expect(launcher.code, launcher.out).to.equal(0);
    writeFileSync(join(content, KREW_BIN), launcher.stdout);
    chmodSync(join(content, KREW_BIN), 0o755);
    writeFileSync(
      join(content, 'app', 'bin', 'cluster-probe.js'),
      `import { spawnSync } from 'node:child_process';\n` +
        `const r = spawnSync(process.execPath, ['--import', 'tsx', ${JSON.stringify(join(REPO, 'src/cli/bin.ts'))}, ...process.argv.slice(2)], { stdio: 'inherit', cwd: ${JSON.stringify(REPO)} });\n` +
        `process.exitCode = r.status ?? 1;\n`,
    );
    const archive = join(dir, `${KREW_PLUGIN_NAME}.tar.gz`);
    expect(run('tar', ['-czf', archive, '-C', content, KREW_BIN, 'app']).code).to.equal(0);

    const generated = run(process.execPath, [
      '--import',
      'tsx',
      'src/cli/bin.ts',
      'manifests',
      '--krew-archive',
      archive,
      '--krew-uri',
      `https://example.invalid/${KREW_PLUGIN_NAME}.tar.gz`,
    ]);
    expect(generated.code, generated.out).to.equal(0);
    // krew wants the file named for the plugin.
    const manifest = join(dir, `${KREW_PLUGIN_NAME}.yaml`);
    writeFileSync(manifest, generated.stdout);
    const parsed = parse(generated.stdout) as { metadata: { name: string }; spec: { platforms: { bin: string }[] } };
    expect(parsed.metadata.name).to.equal(KREW_PLUGIN_NAME);
    expect(new Set(parsed.spec.platforms.map((p) => p.bin))).to.deep.equal(new Set([KREW_BIN]));

    const validated = run(join(KREW_BIN_DIR, 'validate-krew-manifest'), ['-manifest', manifest, '-skip-install']);
    process.stderr.write(`      validate-krew-manifest: ${validated.out.trim().split('\n').at(-1)}\n`);
    expect(validated.code, validated.out).to.equal(0);

    const krewRoot = join(dir, 'krew-root');
    const env = { ...process.env, KREW_ROOT: krewRoot, PATH: `${join(krewRoot, 'bin')}:${process.env.PATH ?? ''}` };
    const installed = run(
      join(KREW_BIN_DIR, 'krew'),
      ['install', `--manifest=${manifest}`, `--archive=${archive}`],
      env,
    );
    expect(installed.code, installed.out).to.equal(0);
    expect(existsSync(join(krewRoot, 'bin', KREW_BIN)), `krew linked ${KREW_BIN}`).to.equal(true);

    const listed = run('kubectl', ['plugin', 'list', '--name-only'], env);
    expect(listed.stdout.split('\n')).to.include(KREW_BIN);
    const help = run('kubectl', [KREW_PLUGIN_NAME, 'status', '--help'], env);
    expect(help.code, help.out).to.equal(0);
    expect(help.stdout).to.match(/^Usage: cluster-probe status/m);
  });
});
