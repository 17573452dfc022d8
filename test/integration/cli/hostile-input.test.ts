// `validate` and `migrate` on input a manifests tree can hold by accident or on purpose: a FIFO or a device, a file
// past MAX_INPUT_BYTES, text that is not UTF-8, a YAML alias bomb and a legitimate many-aliases List, merge keys, a
// Cluster of another API, a symlink loop, a reader that goes away. Each must end with a clear line naming the file and
// the exit status of the rules (2 for unreadable input), never a hang, a stack trace or a changed file.
import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_INPUT_BYTES } from '../../../src/cli/documents.js';

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const legacy = readFileSync('test/fixtures/clusters/member-legacy.yaml', 'utf8');
const cluster = (name: string, extra = '') =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n${extra}spec:\n  syncMode: Push\n  apiEndpoint: https://10.0.0.1:6443\n`;

describe('cluster-probe validate and migrate on hostile input', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-probe-hostile-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a FIFO in a directory by name and checks the other files; reads a named pipe as stdin', () => {
    const tree = join(dir, 'fifo-tree');
    mkdirSync(tree);
    execFileSync('mkfifo', [join(tree, 'pipe.yaml')]);
    writeFileSync(join(tree, 'good.yaml'), cluster('good'));
    const r = cli(['validate', tree]);
    expect(r.code, r.stderr).to.equal(2);
    expect(r.stderr).to.match(/pipe\.yaml: not a regular file \(a FIFO, socket or device\) in the directory/);
    expect(r.stdout).to.contain('Cluster "good" is valid');
    // validate <(kubectl get clusters -o yaml): a pipe named on the command line is the user's own stdin.
    const piped = spawnSync(
      'bash',
      ['-c', `${process.execPath} --import tsx src/cli/bin.ts validate <(cat ${join(tree, 'good.yaml')})`],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(piped.status, piped.stderr).to.equal(0);
    expect(piped.stdout).to.match(/\/dev\/fd\/\d+: Cluster "good" is valid/);
  });

  it('refuses a device and a file larger than MAX_INPUT_BYTES, reading no more than that', () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `${cluster('big')}# ${'x'.repeat(MAX_INPUT_BYTES)}\n`);
    const r = cli(['validate', big, '/dev/zero']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.contain(`big.yaml: larger than ${MAX_INPUT_BYTES} bytes (MAX_INPUT_BYTES); split it`);
    expect(r.stderr).to.contain(`/dev/zero: larger than ${MAX_INPUT_BYTES} bytes`);
  });

  it('refuses text that is not UTF-8, and migrate --write leaves such a file as it was', () => {
    const latin1 = join(dir, 'latin1.yaml');
    const bytes = Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from(`\n${legacy}`)]);
    writeFileSync(latin1, bytes);
    const utf16 = join(dir, 'utf16.yaml');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(cluster('u16'), 'utf16le')]));
    const v = cli(['validate', latin1, utf16]);
    expect(v.code).to.equal(2);
    expect(v.stderr).to.contain('latin1.yaml: not UTF-8 text; convert it to UTF-8');
    expect(v.stderr).to.contain('utf16.yaml: UTF-16 text (it starts with a byte order mark); convert it to UTF-8');
    const m = cli(['migrate', '--write', latin1]);
    expect(m.code).to.equal(2);
    expect(readFileSync(latin1).equals(bytes), 'the file is unchanged').to.equal(true);
  });

  it('names the file of a YAML alias bomb (exit 2), and accepts a List whose 150 Clusters share an anchor', () => {
    const bomb = join(dir, 'bomb.yaml');
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`,
      );
    }
    writeFileSync(bomb, `${levels.join('\n')}\n`);
    const shared = join(dir, 'shared.yaml');
    const items = Array.from(
      { length: 150 },
      (_, i) =>
        `- apiVersion: cluster.karmada.io/v1alpha1\n  kind: Cluster\n  metadata:\n    name: m${i}\n    labels: ${i === 0 ? '&l {env: dev}' : '*l'}\n  spec: {syncMode: Push, apiEndpoint: "https://10.0.0.1:6443"}`,
    );
    writeFileSync(shared, `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`);
    const r = cli(['validate', bomb, shared]);
    expect(r.code, r.stderr).to.equal(2);
    expect(r.stderr).to.match(/bomb\.yaml: not valid YAML or JSON: .*alias.*\(more than 10000 nodes through aliases\)/);
    expect(r.stderr).to.contain('150 Clusters checked: 150 valid, 0 invalid');
    expect(cli(['migrate', bomb]).code).to.equal(2);
  });

  it('applies YAML merge keys as kubectl does, and skips a Cluster of another API group', () => {
    const merged = join(dir, 'merged.yaml');
    writeFileSync(
      merged,
      'apiVersion: v1\nkind: List\nitems:\n' +
        '- &c {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: one}, ' +
        'spec: {syncMode: Push, apiEndpoint: "https://10.0.0.1:6443"}}\n' +
        '- <<: *c\n  metadata: {name: merged}\n',
    );
    const capi = join(dir, 'capi.yaml');
    writeFileSync(
      capi,
      'apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata: {name: capi}\nspec: {paused: true}\n',
    );
    const r = cli(['validate', merged, capi]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.contain('Cluster "merged" is valid');
    expect(r.stderr).to.contain('2 Clusters checked: 2 valid, 0 invalid, 1 other document skipped');
  });

  it('reads a directory once through a symlink back up the tree, and reports a dangling link by name', () => {
    const tree = join(dir, 'loop-tree');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'sub', 'a.yaml'), cluster('a'));
    symlinkSync('..', join(tree, 'sub', 'up'));
    symlinkSync('missing.yaml', join(tree, 'dangling.yaml'));
    const r = cli(['validate', tree]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.contain('dangling.yaml: cannot read: no such file or directory (or a symlink to none)');
    expect(r.stdout).to.equal(`${join(tree, 'sub', 'a.yaml')}: Cluster "a" is valid\n`);
  });

  it('ends quietly when its reader goes away (| head -1): no stack trace, the exit status it decided', () => {
    const list = join(dir, 'list.yaml');
    writeFileSync(
      list,
      `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: 3000 }, (_, i) => `- ${JSON.stringify(JSON.parse(JSON.stringify({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: `m${i}` }, spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443' } })))}`).join('\n')}\n`,
    );
    for (const command of ['validate', 'migrate']) {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `set -o pipefail; ${process.execPath} --import tsx src/cli/bin.ts ${command} ${list} | head -1 >/dev/null`,
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(r.stderr, command).not.to.contain('EPIPE');
      expect(r.stderr, command).not.to.contain('    at ');
      expect(r.status, command).to.equal(0);
    }
  });
});
