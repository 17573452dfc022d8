// `cluster-probe migrate --write` on real files in a temp directory: it changes the probe and keeps everything else the
// user wrote (format, indentation, mode, links, line endings, comments, other documents), and one file it cannot write
// or migrate does not stop the others. Runs the command in-process through commander, as bin.ts does.
import { expect } from 'chai';
import { Command } from 'commander';
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from '../../../src/cli/migrate.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cluster-probe migrate ARGS` in this process, capturing its output and exit status. */
async function migrate(...args: string[]): Promise<Run> {
  const program = new Command('cluster-probe').exitOverride();
  register(program);
  let stdout = '';
  let stderr = '';
  const { write: out } = process.stdout;
  const { write: err } = process.stderr;
  process.stdout.write = ((s: string | Uint8Array) => ((stdout += String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => ((stderr += String(s)), true)) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    await program.parseAsync(['migrate', ...args], { from: 'user' });
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}

const ANNOTATION = '{"service":{"namespace":"some-system","name":"member-dev-health","port":80,"path":"/healthz"}}';
const PROBE = {
  httpGet: { scheme: 'HTTPS', host: 'member-dev-health.some-system.svc', port: 80, path: '/healthz' },
  timeoutSeconds: 10,
};
const PROBE_YAML = [
  '  livenessProbe:',
  '    httpGet:',
  '      scheme: HTTPS',
  '      host: member-dev-health.some-system.svc',
  '      port: 80',
  '      path: /healthz',
  '    timeoutSeconds: 10',
];

function legacyYaml(name: string): string {
  return [
    'apiVersion: cluster.karmada.io/v1alpha1',
    'kind: Cluster',
    'metadata:',
    `  name: ${name}`,
    '  annotations:',
    `    cluster.karmada.io/health-checker: '${ANNOTATION}'`,
    'spec:',
    '  syncMode: Push',
    '',
  ].join('\n');
}

function migratedYaml(name: string): string {
  return [
    'apiVersion: cluster.karmada.io/v1alpha1',
    'kind: Cluster',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  syncMode: Push',
    ...PROBE_YAML,
    '',
  ].join('\n');
}

function legacyObject(name: string): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, annotations: { 'cluster.karmada.io/health-checker': ANNOTATION } },
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443' },
  };
}

function migratedObject(name: string): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443', livenessProbe: PROBE },
  };
}

const mode = (file: string): number => statSync(file).mode & 0o7777;

describe('cluster-probe migrate --write keeps what the user wrote', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cluster-probe-migrate-write-'))));
  afterEach(() => {
    // A read-only directory left by a test must not stop the clean-up.
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  /** The directory holds only the given names: no temporary file is left behind. */
  const expectOnly = (...names: string[]): void => void expect(readdirSync(dir).sort()).to.deep.equal(names.sort());

  describe('format', () => {
    it('keeps a .json file JSON with its 4-space indentation and final newline', async () => {
      const file = join(dir, 'member.json');
      writeFileSync(file, `${JSON.stringify(legacyObject('m'), null, 4)}\n`);
      const r = await migrate('--write', file);
      expect(r.code, r.stderr).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(`${JSON.stringify(migratedObject('m'), null, 4)}\n`);
    });

    it('keeps a 2-space JSON file without a final newline as it was', async () => {
      const file = join(dir, 'member.json');
      writeFileSync(file, JSON.stringify(legacyObject('m'), null, 2));
      expect((await migrate('--write', file)).code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(JSON.stringify(migratedObject('m'), null, 2));
    });

    it('keeps tab-indented JSON tab-indented, and prints JSON for JSON without --write', async () => {
      const file = join(dir, 'member.json');
      writeFileSync(file, `${JSON.stringify(legacyObject('m'), null, '\t')}\n`);
      const printed = await migrate(file);
      expect(printed.stdout).to.equal(`${JSON.stringify(migratedObject('m'), null, '\t')}\n`);
      expect((await migrate('--write', file)).code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(printed.stdout);
    });

    it('keeps a JSON List as JSON and migrates every Cluster in it', async () => {
      const file = join(dir, 'clusters.json');
      const list = (items: unknown[]): string =>
        `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 4)}\n`;
      writeFileSync(file, list([legacyObject('a'), legacyObject('b')]));
      expect((await migrate('--write', file)).code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(list([migratedObject('a'), migratedObject('b')]));
    });

    it('keeps CRLF line endings, and a file without a final newline without one', async () => {
      const crlf = join(dir, 'crlf.yaml');
      writeFileSync(crlf, legacyYaml('m').replace(/\n/g, '\r\n'));
      const bare = join(dir, 'bare.yaml');
      writeFileSync(bare, legacyYaml('n').replace(/\n$/, ''));
      expect((await migrate('--write', crlf, bare)).code).to.equal(0);
      expect(readFileSync(crlf, 'utf8')).to.equal(migratedYaml('m').replace(/\n/g, '\r\n'));
      expect(readFileSync(bare, 'utf8')).to.equal(migratedYaml('n').replace(/\n$/, ''));
    });

    it('keeps 4-space indentation and unindented sequences, and the bytes of every line it does not change', async () => {
      const file = join(dir, 'member.yaml');
      const text = [
        'apiVersion: cluster.karmada.io/v1alpha1',
        'kind: Cluster',
        'metadata:',
        '    name: m',
        '    labels: {team: infra,   tier: "1"}',
        '    annotations:',
        `        cluster.karmada.io/health-checker: '${ANNOTATION}'`,
        'spec:',
        '    syncMode:   Push    # trailing spaces kept',
        '    secretRef: {namespace: karmada-cluster, name: m}',
        '    taints:',
        '    - {key: a, effect: NoSchedule}',
        '',
      ].join('\n');
      writeFileSync(file, text);
      expect((await migrate('--write', file)).code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(
        [
          'apiVersion: cluster.karmada.io/v1alpha1',
          'kind: Cluster',
          'metadata:',
          '    name: m',
          '    labels: {team: infra,   tier: "1"}',
          'spec:',
          '    syncMode:   Push    # trailing spaces kept',
          '    secretRef: {namespace: karmada-cluster, name: m}',
          '    taints:',
          '    - {key: a, effect: NoSchedule}',
          '    livenessProbe:',
          '        httpGet:',
          '            scheme: HTTPS',
          '            host: member-dev-health.some-system.svc',
          '            port: 80',
          '            path: /healthz',
          '        timeoutSeconds: 10',
          '',
        ].join('\n'),
      );
    });

    it('keeps the bytes of the documents of a multi-document file it does not change', async () => {
      const file = join(dir, 'all.yaml');
      const other = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: karmada-cluster,   labels: {a: b}}\n';
      const done =
        'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: x}\nspec: {syncMode: Pull}\n';
      writeFileSync(file, `${other}---\n${legacyYaml('m')}---\n${done}`);
      expect((await migrate('--write', file)).code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(`${other}---\n${migratedYaml('m')}---\n${done}`);
    });
  });

  describe('comments', () => {
    it('moves the comment on the removed annotation above the new field and says so', async () => {
      const file = join(dir, 'member.yaml');
      writeFileSync(
        file,
        legacyYaml('m').replace(
          '    cluster.karmada.io/health-checker',
          '    # the external health service\n    cluster.karmada.io/health-checker',
        ),
      );
      const r = await migrate('--write', file);
      expect(r.code).to.equal(0);
      expect(readFileSync(file, 'utf8')).to.equal(
        migratedYaml('m').replace('  livenessProbe:', '  # the external health service\n  livenessProbe:'),
      );
      expect(r.stderr).to.match(
        /member\.yaml: Cluster "m": moved the comment .*health-checker.* to spec\.livenessProbe/,
      );
    });

    it('keeps a comment above the first annotation with its annotation, not with the next one', async () => {
      const file = join(dir, 'member.yaml');
      writeFileSync(
        file,
        legacyYaml('m').replace(
          `    cluster.karmada.io/health-checker: '${ANNOTATION}'\n`,
          `    # legacy health check\n    cluster.karmada.io/health-checker: '${ANNOTATION}' # since 2023\n    owner: infra\n`,
        ),
      );
      expect((await migrate('--write', file)).code).to.equal(0);
      const text = readFileSync(file, 'utf8');
      expect(text).to.contain('  annotations:\n    owner: infra\nspec:');
      expect(text).to.contain('  syncMode: Push\n  # legacy health check\n  # since 2023\n  livenessProbe:\n');
    });
  });

  describe('Lists', () => {
    it('migrates every Cluster of a kind: List and a kind: ClusterList, keeping the other items', async () => {
      const list = join(dir, 'list.yaml');
      const item = (y: string): string =>
        y
          .trimEnd()
          .split('\n')
          .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
          .join('\n');
      const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: karmada-cluster\n';
      writeFileSync(
        list,
        `apiVersion: v1\nkind: List\nitems:\n${item(legacyYaml('a'))}\n${item(ns)}\n${item(legacyYaml('b'))}\n`,
      );
      const clusterList = join(dir, 'cluster-list.yaml');
      writeFileSync(
        clusterList,
        `apiVersion: cluster.karmada.io/v1alpha1\nkind: ClusterList\nitems:\n${item(legacyYaml('c'))}\n`,
      );
      const r = await migrate('--write', list, clusterList);
      expect(r.code, r.stderr).to.equal(0);
      expect(readFileSync(list, 'utf8')).to.equal(
        `apiVersion: v1\nkind: List\nitems:\n${item(migratedYaml('a'))}\n${item(ns)}\n${item(migratedYaml('b'))}\n`,
      );
      expect(readFileSync(clusterList, 'utf8')).to.equal(
        `apiVersion: cluster.karmada.io/v1alpha1\nkind: ClusterList\nitems:\n${item(migratedYaml('c'))}\n`,
      );
    });
  });

  describe('the file itself', () => {
    it('keeps the mode of a 0600 and a 0640 file', async () => {
      const a = join(dir, 'a.yaml');
      const b = join(dir, 'b.yaml');
      writeFileSync(a, legacyYaml('a'), { mode: 0o600 });
      writeFileSync(b, legacyYaml('b'));
      chmodSync(a, 0o600);
      chmodSync(b, 0o640);
      expect((await migrate('--write', a, b)).code).to.equal(0);
      expect(readFileSync(a, 'utf8')).to.equal(migratedYaml('a'));
      expect(mode(a).toString(8)).to.equal('600');
      expect(mode(b).toString(8)).to.equal('640');
      expectOnly('a.yaml', 'b.yaml');
    });

    it("keeps the owner of a file it replaces (run as root over another user's file)", async function () {
      if (process.getuid?.() !== 0) this.skip();
      const file = join(dir, 'member.yaml');
      writeFileSync(file, legacyYaml('m'));
      chownSync(file, 65534, 65534);
      chmodSync(file, 0o640);
      expect((await migrate('--write', file)).code).to.equal(0);
      const st = statSync(file);
      expect([st.uid, st.gid, mode(file).toString(8)]).to.deep.equal([65534, 65534, '640']);
      expect(readFileSync(file, 'utf8')).to.equal(migratedYaml('m'));
    });

    it('writes through a symlink to its target and keeps the link', async () => {
      mkdirSync(join(dir, 'real'));
      const target = join(dir, 'real', 'member.yaml');
      writeFileSync(target, legacyYaml('m'));
      chmodSync(target, 0o600);
      const link = join(dir, 'member.yaml');
      symlinkSync(join('real', 'member.yaml'), link);
      const r = await migrate('--write', link);
      expect(r.code, r.stderr).to.equal(0);
      expect(lstatSync(link).isSymbolicLink()).to.equal(true);
      expect(readlinkSync(link)).to.equal(join('real', 'member.yaml'));
      expect(readFileSync(target, 'utf8')).to.equal(migratedYaml('m'));
      expect(mode(target).toString(8)).to.equal('600');
      expect(readdirSync(join(dir, 'real'))).to.deep.equal(['member.yaml']);
    });

    it('does not rewrite a file with nothing to migrate', async () => {
      const file = join(dir, 'done.yaml');
      writeFileSync(file, migratedYaml('m'));
      const before = statSync(file);
      const r = await migrate('--write', file);
      expect(r.code).to.equal(0);
      const after = statSync(file);
      expect([after.ino, after.mtimeMs]).to.deep.equal([before.ino, before.mtimeMs]);
    });
  });

  describe('failures', () => {
    it('refuses a read-only file by name, migrates the others, and exits 1 at the end', async () => {
      const a = join(dir, 'a.yaml');
      const ro = join(dir, 'b-read-only.yaml');
      const c = join(dir, 'c.yaml');
      writeFileSync(a, legacyYaml('a'));
      writeFileSync(ro, legacyYaml('b'));
      writeFileSync(c, legacyYaml('c'));
      chmodSync(ro, 0o444);
      const r = await migrate('--write', a, ro, c);
      expect(r.code).to.equal(1);
      expect(readFileSync(a, 'utf8')).to.equal(migratedYaml('a'));
      expect(readFileSync(c, 'utf8')).to.equal(migratedYaml('c'));
      expect(readFileSync(ro, 'utf8')).to.equal(legacyYaml('b'));
      expect(mode(ro).toString(8)).to.equal('444');
      expect(r.stderr).to.contain(`${ro}: not written: the file is read-only (mode 0444); make it writable`);
      expectOnly('a.yaml', 'b-read-only.yaml', 'c.yaml');
    });

    it('refuses a file with other hard links rather than splitting them', async () => {
      const file = join(dir, 'member.yaml');
      writeFileSync(file, legacyYaml('m'));
      linkSync(file, join(dir, 'other-name.yaml'));
      const r = await migrate('--write', file);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.contain(`${file}: not written: it has 2 hard links`);
      expect(readFileSync(file, 'utf8')).to.equal(legacyYaml('m'));
    });

    it('goes on after a missing path and a file it cannot migrate, and exits 2 for the unreadable input', async () => {
      const bad = join(dir, 'bad.yaml');
      const badText = legacyYaml('bad').replace(`'${ANNOTATION}'`, `'{"service": }'`);
      writeFileSync(bad, badText);
      const good = join(dir, 'good.yaml');
      writeFileSync(good, legacyYaml('good'));
      const r = await migrate('--write', join(dir, 'missing.yaml'), bad, good);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain(`${join(dir, 'missing.yaml')}: cannot read: no such file or directory`);
      expect(r.stderr).to.contain(`${bad}: Cluster "bad" cannot be migrated:`);
      expect(readFileSync(bad, 'utf8')).to.equal(badText);
      expect(readFileSync(good, 'utf8')).to.equal(migratedYaml('good'));
    });
  });
});
