// Each command loads only what it uses: `--help`, `validate` and `migrate` of a file run without the webhook's server,
// the Kubernetes client, the probe engine, the logger or the certificate maker, which only the commands that use them
// import, in their actions. Checked on the modules a real `cluster-probe` process resolves (a module resolve hook).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Packages and modules that only serve, probe, reconcile, certs and dev need. */
const HEAVY = [
  '/node_modules/@kubernetes/client-node/',
  '/node_modules/express/',
  '/node_modules/pino/',
  '/node_modules/prom-client/',
  '/node_modules/@grpc/grpc-js/',
  '/node_modules/@grpc/proto-loader/',
  '/node_modules/selfsigned/',
  '/node_modules/ajv/',
  '/src/webhook/index.ts',
  '/src/webhook/server.ts',
  '/src/reconciler/index.ts',
  '/packages/probe/src/index.ts',
  '/src/certs/index.ts',
  '/src/dev/playground.ts',
];

describe('cluster-probe start-up imports', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-imports-'));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.CLUSTER_PROBE_IMPORT_LOG, result.url + '\\n');
  return result;
}
`,
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`,
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The modules `cluster-probe ARGS` resolves, and its exit status. */
  function loadedBy(args: string[]): { status: number | null; loaded: string[] } {
    const log = join(dir, `${args[0]}.log`);
    writeFileSync(log, '');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', pathToFileURL(join(dir, 'register.mjs')).href, 'src/cli/bin.ts', ...args],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, CLUSTER_PROBE_IMPORT_LOG: log } },
    );
    return { status: run.status, loaded: readFileSync(log, 'utf8').split('\n') };
  }

  const heavyIn = (loaded: string[]): string[] => HEAVY.filter((h) => loaded.some((url) => url.includes(h)));

  it('--help loads no command’s work', () => {
    const { status, loaded } = loadedBy(['--help']);
    expect(status).to.equal(0);
    expect(loaded.some((url) => url.includes('/src/cli/main.ts'))).to.equal(true);
    expect(heavyIn(loaded)).to.deep.equal([]);
  });

  it('validate of one file loads the schema library and YAML, nothing heavy', () => {
    const { status, loaded } = loadedBy(['validate', 'test/fixtures/clusters/member-dev.yaml']);
    expect(status).to.equal(0);
    expect(loaded.some((url) => url.includes('/packages/schema/src/schema/generated/validators.ts'))).to.equal(true);
    expect(heavyIn(loaded)).to.deep.equal([]);
  });

  it('migrate of one file loads no Kubernetes client (only --in-cluster does)', () => {
    const { status, loaded } = loadedBy(['migrate', 'test/fixtures/clusters/member-legacy.yaml']);
    expect(status).to.equal(0);
    expect(heavyIn(loaded)).to.deep.equal([]);
  });

  it('status --help loads no Kubernetes client (its action does)', () => {
    const help = loadedBy(['status', '--help']);
    expect(help.status).to.equal(0);
    expect(heavyIn(help.loaded)).to.deep.equal([]);
    const run = loadedBy(['status', '--kubeconfig', join(dir, 'no-such-kubeconfig')]);
    expect(run.status).to.equal(2);
    expect(heavyIn(run.loaded)).to.include.members(['/node_modules/@kubernetes/client-node/']);
  });

  it('reconcile loads the Kubernetes client in its action (the check above can see it)', () => {
    const { status, loaded } = loadedBy(['reconcile', '--kubeconfig', join(dir, 'no-such-kubeconfig')]);
    expect(status).to.equal(2);
    expect(heavyIn(loaded)).to.include.members(['/node_modules/@kubernetes/client-node/', '/src/reconciler/index.ts']);
  });
});
