// `cluster-probe migrate --in-cluster` as a user runs it (a child process, a kubeconfig) against an apiserver in this
// process that behaves as karmada-aggregated-apiserver (drops spec.livenessProbe, answers 200) or as kube-apiserver
// serving our CRD: where the probe goes (auto), what is refused before any write, every write checked by a dry run
// first and by the answer after, the backup and --restore. The real servers: test/e2e/karmada.test.ts.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeClusterApiserver, type FakeCluster, type FakeOptions } from './fake-cluster-apiserver.js';

const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';
const LEGACY_ANNOTATION = 'cluster.karmada.io/health-checker';
const PROBE = '{"apiServer":{"minReadyNodes":2},"periodSeconds":2,"failureThreshold":2}';
const LEGACY = '{"url":"https://10.0.0.9:6443/readyz"}';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const member = (
  name: string,
  annotations: Record<string, string>,
  spec: Record<string, unknown> = {},
): FakeCluster => ({
  metadata: { name, annotations },
  spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.9:6443', ...spec },
});

describe('cluster-probe migrate --in-cluster (an apiserver in this process)', function () {
  this.timeout(60_000);
  let dir: string;
  let server: FakeClusterApiserver;
  let kubeconfig: string;
  let env: NodeJS.ProcessEnv;

  async function serve(options: FakeOptions, clusters: FakeCluster[]): Promise<void> {
    server = new FakeClusterApiserver(options);
    for (const c of clusters) server.put(c);
    const url = await server.start();
    writeFileSync(kubeconfig, server.kubeconfig(url));
  }
  const migrate = (...args: string[]) => cli(['migrate', '--in-cluster', '--kubeconfig', kubeconfig, ...args], env);
  const backups = () => {
    const at = join(dir, 'state', 'karmada-cluster-probe');
    return existsSync(at) ? readdirSync(at) : [];
  };

  beforeEach(function () {
    dir = mkdtempSync(join(tmpdir(), 'migrate-in-cluster-'));
    kubeconfig = join(dir, 'kubeconfig');
    env = { ...process.env, XDG_STATE_HOME: join(dir, 'state'), HOME: dir };
  });
  afterEach(async function () {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('on a server that drops spec.livenessProbe (karmada-aggregated-apiserver)', function () {
    const fleet = () => [
      member('member1', { [PROBE_ANNOTATION]: PROBE }),
      member('member2', { [PROBE_ANNOTATION]: PROBE, other: 'kept' }),
      member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY }),
    ];

    it('without --probe-location keeps every probe in the annotation and migrates the legacy one into it', async function () {
      await serve({ flavour: 'karmada' }, fleet());
      const r = await migrate();
      expect(r.code, r.stderr + r.stdout).to.equal(0);
      for (const name of ['member1', 'member2']) {
        expect(server.get(name)?.metadata.annotations?.[PROBE_ANNOTATION], name).to.equal(PROBE);
      }
      expect(r.stderr).to.match(/--probe-location auto: annotation/);
      expect(r.stderr).to.include('v1alpha1.cluster.karmada.io');
      const legacy = server.get('k3-legacy')!;
      expect(legacy.metadata.annotations?.[LEGACY_ANNOTATION]).to.equal(undefined);
      expect(JSON.parse(legacy.metadata.annotations?.[PROBE_ANNOTATION] ?? '{}')).to.deep.include({
        httpGet: { scheme: 'HTTPS', host: '10.0.0.9', port: 6443, path: '/readyz' },
      });
      expect(r.stdout).to.match(/3 Clusters: 1 migrated, 2 unchanged, 0 failed/);
      expect(server.writes).to.equal(1);
    });

    it('refuses --probe-location field before any write, saying why and what to pass', async function () {
      await serve({ flavour: 'karmada' }, fleet());
      const r = await migrate('--probe-location', 'field');
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include('--probe-location field refused');
      expect(r.stderr).to.include('does not store spec.livenessProbe');
      expect(r.stderr).to.include('karmada-system/karmada-aggregated-apiserver');
      expect(r.stderr).to.include('--probe-location annotation');
      expect(server.requests.filter((q) => q.startsWith('PATCH'))).to.deep.equal([]);
      expect(server.get('member1')?.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(PROBE);
      expect(backups()).to.deep.equal([]);
    });

    it('takes the annotation, and says so, when discovery is forbidden', async function () {
      await serve({ flavour: 'karmada', forbidApiServices: true, forbidOpenApi: true }, fleet());
      const r = await migrate();
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.match(/cannot tell.*403/s);
      expect(r.stderr).to.include('--probe-location auto: annotation');
      expect(server.get('member1')?.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(PROBE);
    });

    it('--dry-run shows what the server would store, and stores nothing', async function () {
      await serve({ flavour: 'karmada' }, fleet());
      const r = await migrate('--dry-run');
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.include('cluster/k3-legacy: would migrate (dry run, nothing stored)');
      expect(r.stdout).to.include(`  - metadata.annotations[${LEGACY_ANNOTATION}]: ${LEGACY}`);
      expect(r.stdout).to.match(/\+ metadata\.annotations\[cluster\.karmada\.io\/liveness-probe\]: \{"httpGet"/);
      expect(server.writes).to.equal(0);
      expect(backups()).to.deep.equal([]);
    });
  });

  describe('every write checked: a dry run first, the answer after', function () {
    // A server whose OpenAPI claims the field but whose storage drops it: only the dry run can tell.
    const lying: FakeOptions = { flavour: 'crd', openApiClaimsField: true, pruneField: true };

    it('writes no Cluster when the dry run shows the server would drop the probe, and exits 1', async function () {
      await serve(lying, [
        member('member1', { [PROBE_ANNOTATION]: PROBE }),
        member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY }),
      ]);
      const r = await migrate();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include('cluster/member1: the apiserver would not store the migration');
      expect(r.stdout).to.include('spec.livenessProbe: would be dropped');
      expect(r.stdout).to.match(/nothing written.*--continue-on-error/s);
      expect(server.writes).to.equal(0);
      expect(server.get('member1')?.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(PROBE);
    });

    it('--dry-run shows the loss', async function () {
      await serve(lying, [member('member1', { [PROBE_ANNOTATION]: PROBE })]);
      const r = await migrate('--dry-run');
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include('spec.livenessProbe: would be dropped');
      expect(server.writes).to.equal(0);
    });

    it('--continue-on-error writes the Clusters that pass and keeps the others', async function () {
      await serve(
        {
          ...lying,
          onWrite: (c) => void (c.metadata.name === 'member1' && delete c.spec.livenessProbe),
          pruneField: false,
        },
        [member('member1', { [PROBE_ANNOTATION]: PROBE }), member('member2', { [PROBE_ANNOTATION]: PROBE })],
      );
      const r = await migrate('--continue-on-error');
      expect(r.code).to.equal(1);
      expect(server.get('member1')?.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(PROBE);
      expect(server.get('member2')?.spec.livenessProbe).to.deep.equal(JSON.parse(PROBE));
      expect(r.stdout).to.match(/2 Clusters: 1 migrated, 0 unchanged, 1 failed/);
    });

    it('reports a Cluster whose stored answer differs from the dry run as failed', async function () {
      await serve(
        {
          flavour: 'crd',
          onWrite: (c, dryRun) => {
            if (!dryRun) delete c.spec.livenessProbe;
          },
        },
        [member('member1', { [PROBE_ANNOTATION]: PROBE })],
      );
      const r = await migrate();
      expect(r.code).to.equal(1);
      expect(r.stdout).to.include('cluster/member1: the apiserver did not store the migration');
      expect(r.stdout).to.include('--restore');
    });
  });

  describe('on a server that stores spec.livenessProbe (our CRD)', function () {
    it('without --probe-location moves the probe into the field', async function () {
      await serve({ flavour: 'crd' }, [member('member1', { [PROBE_ANNOTATION]: PROBE })]);
      const r = await migrate();
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.include('--probe-location auto: field');
      const c = server.get('member1')!;
      expect(c.spec.livenessProbe).to.deep.equal(JSON.parse(PROBE));
      expect(c.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(undefined);
    });
  });

  describe('the backup and --restore', function () {
    it('writes a 0600 backup before any write, with the resourceVersion of its write; --restore puts every byte back', async function () {
      await serve({ flavour: 'crd' }, [
        member('member1', { [PROBE_ANNOTATION]: PROBE, other: 'kept' }),
        member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY }),
      ]);
      const before = { member1: server.get('member1')!, legacy: server.get('k3-legacy')! };
      const r = await migrate();
      expect(r.code, r.stderr).to.equal(0);
      const path = /backup: (\S+)/.exec(r.stderr)?.[1];
      expect(path, r.stderr).to.be.a('string');
      expect(path!.startsWith(join(dir, 'state', 'karmada-cluster-probe') + '/')).to.equal(true);
      expect(statSync(path!).mode & 0o777).to.equal(0o600);
      const backup = JSON.parse(readFileSync(path!, 'utf8')) as {
        clusters: { name: string; resourceVersion: string; writtenResourceVersion?: string }[];
      };
      expect(backup.clusters.map((c) => [c.name, c.resourceVersion, c.writtenResourceVersion])).to.deep.equal([
        ['member1', before.member1.metadata.resourceVersion, server.get('member1')!.metadata.resourceVersion],
        ['k3-legacy', before.legacy.metadata.resourceVersion, server.get('k3-legacy')!.metadata.resourceVersion],
      ]);

      const back = await cli(['migrate', '--restore', path!, '--kubeconfig', kubeconfig], env);
      expect(back.code, back.stderr + back.stdout).to.equal(0);
      for (const [name, was] of Object.entries({ member1: before.member1, 'k3-legacy': before.legacy })) {
        const now = server.get(name)!;
        expect(now.metadata.annotations, name).to.deep.equal(was.metadata.annotations);
        expect(now.spec, name).to.deep.equal(was.spec);
      }
      expect(back.stdout).to.match(/2 Clusters: 2 restored, 0 failed/);
    });

    it('--restore reports a Cluster changed since the migration and does not overwrite it', async function () {
      await serve({ flavour: 'crd' }, [member('member1', { [PROBE_ANNOTATION]: PROBE })]);
      const backup = join(dir, 'my-backup.json');
      const r = await migrate('--backup', backup);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.include(`backup: ${backup}`);
      const changed = server.get('member1')!;
      changed.spec.livenessProbe = { tcpSocket: { port: 6443 } };
      server.put(changed);
      const back = await cli(['migrate', '--restore', backup, '--kubeconfig', kubeconfig], env);
      expect(back.code).to.equal(1);
      expect(back.stdout).to.include('cluster/member1: changed since the migration');
      expect(server.get('member1')?.spec.livenessProbe).to.deep.equal({ tcpSocket: { port: 6443 } });
    });

    it('--restore puts back a Cluster whose resourceVersion moved by writes elsewhere only (a status update)', async function () {
      await serve({ flavour: 'karmada' }, [member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY, other: 'kept' })]);
      const before = server.get('k3-legacy')!;
      const backup = join(dir, 'b.json');
      expect((await migrate('--backup', backup)).code).to.equal(0);
      const migrated = server.get('k3-legacy')!;
      server.put({ ...migrated, spec: { ...migrated.spec, taints: [] } }); // another field, another resourceVersion
      const back = await cli(['migrate', '--restore', backup, '--kubeconfig', kubeconfig], env);
      expect(back.code, back.stdout + back.stderr).to.equal(0);
      expect(server.get('k3-legacy')?.metadata.annotations).to.deep.equal(before.metadata.annotations);
    });

    // Karmada's cluster status controller and the reconciler write a Cluster every few seconds: one of them between
    // --restore's read and its patch fails the patch's resourceVersion test (a 422 from kube-apiserver, CI saw it).
    it('--restore reads again when another writer wrote between its read and its patch, and puts the Cluster back', async function () {
      let races = 2;
      await serve(
        {
          flavour: 'karmada',
          beforePatch: (name, dryRun) => {
            if (racing && !dryRun && races-- > 0) {
              const now = server.get(name)!;
              server.put({ ...now, spec: { ...now.spec, taints: [{ key: `status-${races}`, effect: 'NoSchedule' }] } });
            }
          },
        },
        [member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY, other: 'kept' })],
      );
      let racing = false;
      const before = server.get('k3-legacy')!;
      const backup = join(dir, 'b.json');
      expect((await migrate('--backup', backup)).code).to.equal(0);
      racing = true;
      const back = await cli(['migrate', '--restore', backup, '--kubeconfig', kubeconfig], env);
      expect(back.code, back.stdout + back.stderr).to.equal(0);
      expect(back.stdout).to.include('cluster/k3-legacy: restored');
      expect(races).to.be.below(0);
      const now = server.get('k3-legacy')!;
      expect(now.metadata.annotations).to.deep.equal(before.metadata.annotations);
      expect(now.spec.taints, 'the other writer kept').to.deep.equal([{ key: 'status-0', effect: 'NoSchedule' }]);
      expect(server.requests.filter((r) => r.startsWith('PATCH ')).length).to.be.at.least(3);
    });

    it('--restore gives up on a Cluster written between every read and patch, says so and overwrites nothing', async function () {
      let racing = false;
      let n = 0;
      await serve(
        {
          flavour: 'karmada',
          beforePatch: (name, dryRun) => {
            if (racing && !dryRun) {
              const now = server.get(name)!;
              server.put({ ...now, spec: { ...now.spec, taints: [{ key: `status-${n++}`, effect: 'NoSchedule' }] } });
            }
          },
        },
        [member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY })],
      );
      const backup = join(dir, 'b.json');
      expect((await migrate('--backup', backup)).code).to.equal(0);
      const migrated = server.get('k3-legacy')!.metadata.annotations;
      racing = true;
      const back = await cli(['migrate', '--restore', backup, '--kubeconfig', kubeconfig], env);
      expect(back.code, back.stdout + back.stderr).to.equal(1);
      expect(back.stdout).to.include(
        'cluster/k3-legacy: written by another writer 5 times between our read and our patch (the resourceVersion test failed each time); not overwritten. Run --restore again',
      );
      expect(n).to.equal(5);
      expect(server.get('k3-legacy')!.metadata.annotations).to.deep.equal(migrated);
    });

    it('migrate reads, checks and writes again when another writer wrote between its dry run and its write', async function () {
      let races = 1;
      await serve(
        {
          flavour: 'karmada',
          beforePatch: (name, dryRun) => {
            if (!dryRun && races-- > 0) {
              const now = server.get(name)!;
              server.put({ ...now, spec: { ...now.spec, taints: [{ key: 'status', effect: 'NoSchedule' }] } });
            }
          },
        },
        [member('k3-legacy', { [LEGACY_ANNOTATION]: LEGACY })],
      );
      const r = await migrate();
      expect(r.code, r.stdout + r.stderr).to.equal(0);
      expect(r.stdout).to.include('cluster/k3-legacy: migrated');
      const now = server.get('k3-legacy')!;
      expect(now.metadata.annotations?.[LEGACY_ANNOTATION]).to.equal(undefined);
      expect(now.metadata.annotations?.[PROBE_ANNOTATION]).to.be.a('string');
      expect(now.spec.taints).to.deep.equal([{ key: 'status', effect: 'NoSchedule' }]);
    });

    it('stops before any write when the backup cannot be written, or would replace another', async function () {
      await serve({ flavour: 'crd' }, [member('member1', { [PROBE_ANNOTATION]: PROBE })]);
      const notADir = join(dir, 'file');
      writeFileSync(notADir, 'x');
      const r = await migrate('--backup', join(notADir, 'b.json'));
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include(`cannot write the backup ${join(notADir, 'b.json')}`);
      expect(r.stderr).to.include('nothing was written');
      const r2 = await migrate('--backup', notADir);
      expect(r2.code).to.equal(2);
      expect(r2.stderr).to.include('EEXIST');
      expect(readFileSync(notADir, 'utf8')).to.equal('x');
      expect(server.writes).to.equal(0);
      expect(server.get('member1')?.metadata.annotations?.[PROBE_ANNOTATION]).to.equal(PROBE);
    });

    it('--restore refuses a file that is too large or not a backup, naming it', async function () {
      await serve({ flavour: 'crd' }, []);
      const big = join(dir, 'big.json');
      writeFileSync(big, Buffer.alloc(65 * 1024 * 1024, 0x20));
      const r = await cli(['migrate', '--restore', big, '--kubeconfig', kubeconfig], env);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include(big);
      expect(r.stderr).to.match(/larger than/);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, '{"kind":"Something"}');
      const r2 = await cli(['migrate', '--restore', bad, '--kubeconfig', kubeconfig], env);
      expect(r2.code).to.equal(2);
      expect(r2.stderr).to.include(bad);
      expect(server.requests.filter((q) => q.startsWith('PATCH'))).to.deep.equal([]);
    });
  });
});
