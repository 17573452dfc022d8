// `serve` loads what serving needs and no more (issue 14, serve start-up): with certificates given it never loads the
// certificate maker (selfsigned and @peculiar/x509 under it), express, YAML or the manifest renderer; only
// --make-certs on an empty directory loads selfsigned. Checked on the modules a real `cluster-probe serve` process
// resolves (a module resolve hook), up to its "webhook listening" log line.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeCertificates } from '../../../src/certs/index.js';

const NOT_FOR_SERVING = [
  '/node_modules/selfsigned/',
  '/node_modules/@peculiar/x509/',
  '/node_modules/express/',
  '/node_modules/yaml/',
  '/src/deploy/',
];

describe('cluster-probe serve start-up imports', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-serve-imports-'));
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
    await makeCertificates(join(dir, 'given'), { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The modules `cluster-probe serve ARGS` resolved by the time it listens with a certificate loaded. */
  function loadedUntilReady(name: string, args: string[]): Promise<string[]> {
    const log = join(dir, `${name}.log`);
    writeFileSync(log, '');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        pathToFileURL(join(dir, 'register.mjs')).href,
        'src/cli/bin.ts',
        'serve',
        '--port',
        '0',
        '--shutdown-delay',
        '0',
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CLUSTER_PROBE_IMPORT_LOG: log } },
    );
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/"msg":"webhook listening".*"ready":true|"ready":true.*"msg":"webhook listening"/.test(out)) {
          child.kill('SIGTERM');
        }
      });
      child.on('close', () => {
        clearTimeout(timer);
        if (!out.includes('webhook listening')) return reject(new Error(`serve never listened: ${err}${out}`));
        resolve(readFileSync(log, 'utf8').split('\n'));
      });
    });
  }

  const present = (loaded: string[]): string[] => NOT_FOR_SERVING.filter((m) => loaded.some((url) => url.includes(m)));

  it('with certificates given, loads no certificate maker, express, YAML or manifests', async () => {
    const loaded = await loadedUntilReady('given', ['--cert-dir', join(dir, 'given')]);
    expect(loaded.some((url) => url.includes('/src/webhook/server.ts'))).to.equal(true);
    expect(loaded.some((url) => url.includes('/src/certs/reloader.ts'))).to.equal(true);
    expect(present(loaded)).to.deep.equal([]);
  });

  it('with --make-certs on an empty directory, loads selfsigned to make them (the check above can see it)', async () => {
    const loaded = await loadedUntilReady('made', ['--cert-dir', join(dir, 'made'), '--make-certs']);
    expect(present(loaded)).to.include('/node_modules/selfsigned/');
  });
});
