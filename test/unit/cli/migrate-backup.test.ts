// The backup of `migrate --in-cluster` (src/cli/migrate-backup.ts): what is kept of a Cluster, the restore patch
// built from it, the default path under the user's state directory, and reading a file that is not a backup.
import { expect } from 'chai';
import jsonpatch from 'fast-json-patch';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BACKUP_KIND,
  BackupError,
  defaultBackupPath,
  heldValues,
  notHeld,
  readBackup,
  restorePatch,
  saveBackup,
} from '../../../src/cli/migrate-backup.js';
import { TIMING_DEFAULTS } from '../../../packages/schema/src/api/index.js';
import { migrateCluster } from '../../../packages/schema/src/schema/index.js';
import { storedDifferences } from '../../../src/cli/migrate-in-cluster.js';

const PROBE = 'cluster.karmada.io/liveness-probe';
const LEGACY = 'cluster.karmada.io/health-checker';
const cluster = (annotations: Record<string, string> | undefined, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'm', resourceVersion: '7', ...(annotations ? { annotations } : {}) },
  spec: { syncMode: 'Push', ...spec },
});

describe('migrate --in-cluster backup', () => {
  it('keeps the touched annotations byte for byte and the fields, and its patch puts them back', () => {
    // A probe annotation written with spaces and key order of its own: restored exactly as written.
    const before = cluster({ [PROBE]: '{ "tcpSocket": {"port": 6443} }', other: 'x' });
    const migrated = migrateCluster(before, { probeLocation: 'field' });
    const paths = migrated.patch.map((op) => op.path);
    const held = heldValues(before, migrated.object, paths);
    expect(held).to.deep.equal({
      annotations: { [PROBE]: '{ "tcpSocket": {"port": 6443} }' },
      fields: { '/spec/livenessProbe': null },
    });
    const written = { ...(migrated.object as object), metadata: { ...before.metadata, resourceVersion: '8' } };
    (written.metadata as { annotations?: unknown }).annotations = { other: 'x' };
    const back = jsonpatch.applyPatch(structuredClone(written), restorePatch(written, held, '8') as never).newDocument;
    expect(back).to.deep.equal({ ...before, metadata: { ...before.metadata, resourceVersion: '8' } });
    expect(notHeld(back, held)).to.deep.equal([]);
    expect(notHeld(written, held)).to.deep.equal([
      `metadata.annotations[${PROBE}]: absent`,
      'spec.livenessProbe: differs',
    ]);
  });

  it('puts the annotations map back when the write left none', () => {
    const before = cluster({ [LEGACY]: '{"url":"https://10.0.0.9:6443/readyz"}' });
    const migrated = migrateCluster(before, { probeLocation: 'field' });
    const held = heldValues(
      before,
      migrated.object,
      migrated.patch.map((op) => op.path),
    );
    const written = { ...(migrated.object as Record<string, unknown>), metadata: { name: 'm', resourceVersion: '9' } };
    const patch = restorePatch(written, held, '9');
    expect(patch[0]).to.deep.equal({ op: 'test', path: '/metadata/resourceVersion', value: '9' });
    expect(patch).to.deep.include({
      op: 'add',
      path: '/metadata/annotations',
      value: { [LEGACY]: '{"url":"https://10.0.0.9:6443/readyz"}' },
    });
    expect(patch).to.deep.include({ op: 'remove', path: '/spec/livenessProbe' });
  });

  it('defaults to $XDG_STATE_HOME, else ~/.local/state (a relative XDG_STATE_HOME is ignored, as the spec says)', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    expect(defaultBackupPath({ XDG_STATE_HOME: '/s', HOME: '/h' }, at)).to.equal(
      `/s/karmada-cluster-probe/migrate-2026-01-02T03-04-05-006Z-${process.pid}.json`,
    );
    expect(defaultBackupPath({ XDG_STATE_HOME: 'rel', HOME: '/h' }, at)).to.match(
      /^\/h\/\.local\/state\/karmada-cluster-probe\//,
    );
  });

  describe('the file', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'backup-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const backup = {
      kind: BACKUP_KIND as typeof BACKUP_KIND,
      version: 1 as const,
      createdAt: 'now',
      probeLocation: 'annotation',
      clusters: [{ name: 'm', resourceVersion: '7', annotations: { a: 'b', c: null }, fields: {} }],
    };

    it('is written mode 0600 in a new directory, never over an older one, and read back', () => {
      const path = join(dir, 'state', 'b.json');
      saveBackup(path, backup, true);
      expect(statSync(path).mode & 0o777).to.equal(0o600);
      expect(statSync(join(dir, 'state')).mode & 0o777).to.equal(0o700);
      expect(() => saveBackup(path, backup, true)).to.throw(BackupError, `cannot write the backup ${path}: EEXIST`);
      saveBackup(path, { ...backup, clusters: [{ ...backup.clusters[0]!, writtenResourceVersion: '8' }] }, false);
      expect(statSync(path).mode & 0o777).to.equal(0o600);
      expect(readBackup(path).clusters[0]?.writtenResourceVersion).to.equal('8');
    });

    it('refuses, naming the file, one too large, not JSON, or not a backup', () => {
      const path = join(dir, 'x.json');
      writeFileSync(path, JSON.stringify(backup));
      expect(() => readBackup(path, 10)).to.throw(BackupError, `${path}: larger than 10 bytes (MAX_BACKUP_BYTES)`);
      writeFileSync(path, '{');
      expect(() => readBackup(path)).to.throw(BackupError, `${path}: not JSON`);
      writeFileSync(path, JSON.stringify({ ...backup, clusters: [{ name: 'm' }] }));
      expect(() => readBackup(path)).to.throw(BackupError, 'clusters[0].resourceVersion must be a string');
      writeFileSync(
        path,
        JSON.stringify({ ...backup, clusters: [{ ...backup.clusters[0], fields: { '/metadata/name': 'x' } }] }),
      );
      expect(() => readBackup(path)).to.throw(BackupError, 'fields JSON Pointers outside metadata to values');
      expect(() => readBackup(dir)).to.throw(BackupError, `${dir}: not a regular file`);
      expect(() => readBackup(join(dir, 'none'))).to.throw(BackupError, `cannot read the backup ${join(dir, 'none')}`);
    });
  });
});

describe('the check of what the apiserver stored', () => {
  const expected = cluster({ [PROBE]: '{"tcpSocket":{"port":6443}}' });
  const paths = [`/metadata/annotations/${PROBE.replace('/', '~1')}`, '/spec/livenessProbe'];

  it('names a dropped field and a changed value', () => {
    const withField = cluster(undefined, { livenessProbe: { tcpSocket: { port: 6443 } } });
    expect(storedDifferences(withField, cluster(undefined), ['/spec/livenessProbe'], 'would be')).to.deep.equal([
      '  spec.livenessProbe: would be dropped (the patch sets {"tcpSocket":{"port":6443}})',
    ]);
    expect(storedDifferences(expected, cluster({ [PROBE]: '{"tcpSocket":{"port":1}}' }), paths, 'was')).to.deep.equal([
      `  metadata.annotations[${PROBE}]: was stored as {"tcpSocket":{"port":1}} instead of {"tcpSocket":{"port":6443}}`,
    ]);
  });

  it("takes a probe the server only defaulted (an admission webhook's) as stored", () => {
    const defaulted = cluster({
      [PROBE]: JSON.stringify({ tcpSocket: { port: 6443 }, ...TIMING_DEFAULTS }),
    });
    expect(storedDifferences(expected, defaulted, paths, 'was')).to.deep.equal([]);
  });
});
