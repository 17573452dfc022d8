// The manager end to end against an in-memory apiserver and real probe targets on 127.0.0.1: an invalid probe is never
// run and is reported once (Unknown/InvalidLivenessProbe, a Warning Event, a metric, our taint lifted); a probe aimed at
// the member's own apiEndpoint trusts the CA in the Cluster's secretRef Secret, and no other host gets that trust;
// with --taint-effect none only the condition is written.
import http from 'node:http';
import https from 'node:https';
import { expect } from 'chai';
import { ClusterManager, createMetrics, type ReconcilerMetrics } from '../../../src/reconciler/index.js';
import type { Taint } from '../../../packages/schema/src/schema/index.js';
import { b64, testPki, type TestPki } from '../probe/certs.js';
import { close, listen } from '../probe/servers.js';
import { FakeApiServer } from '../../support/fake-apiserver.js';
import { aCluster, healthyCondition, healthyOf as healthy, httpProbe, unhealthyTaint } from '../../support/cluster.js';
import { HANG_MS, until } from './until.js';

const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
const maintenance: Taint = { key: 'example.com/maintenance', value: 'planned', effect: 'NoSchedule' };
const ours = unhealthyTaint();
const wasHealthy = healthyCondition('True');

/** The legacy health-checker annotation (migrated to a probe by the reconciler) of a probe of `url`. */
const legacyUrl = (url: string): Record<string, string> => ({
  'cluster.karmada.io/health-checker': JSON.stringify({ url }),
});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function metric(metrics: ReconcilerMetrics, name: string, labels: string): Promise<number | undefined> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`) || l === `${name} ${labels}`);
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('reconciler manager (in-memory apiserver, real probe targets)', function () {
  this.timeout(4 * HANG_MS); // catches a hang only: each wait below has a HANG_MS deadline of its own
  let kube: FakeApiServer;
  let metrics: ReconcilerMetrics;
  let manager: ClusterManager | undefined;
  const servers: (http.Server | https.Server)[] = [];
  let hits = 0;
  let status = 200;
  let httpPort = 0;

  const start = async (taintEffect: 'NoSchedule' | 'none' = 'NoSchedule'): Promise<ClusterManager> => {
    manager = new ClusterManager({
      api: kube,
      taintEffect,
      metrics,
      log: quiet,
      identity: 'test',
      random: () => 0,
      credentialsWaitMs: 2_000,
    });
    manager.start();
    await until('the Clusters listed', () => (manager!.ready ? true : undefined));
    return manager;
  };

  before(async () => {
    const plain = http.createServer((_req, res) => {
      hits++;
      res.writeHead(status);
      res.end();
    });
    httpPort = await listen(plain);
    servers.push(plain);
  });

  beforeEach(() => {
    kube = new FakeApiServer();
    metrics = createMetrics();
    hits = 0;
    status = 200;
  });

  afterEach(async () => {
    await manager?.stop();
    manager = undefined;
  });

  after(async () => {
    for (const s of servers) await close(s);
  });

  describe('invalid probes', () => {
    it('never runs an invalid probe; reports it once as Unknown/InvalidLivenessProbe with an Event and a metric, and lifts our taint', async () => {
      kube.putCluster(
        aCluster('m-bad', {
          taints: [maintenance, ours],
          probe: httpProbe(httpPort, 'healthz', { periodSeconds: 1 }),
          conditions: [wasHealthy],
        }),
      );
      await start();
      const c = await until('InvalidLivenessProbe', () => {
        const x = kube.cluster('m-bad');
        return healthy(x)?.reason === 'InvalidLivenessProbe' && x!.spec.taints?.length === 1 ? x : undefined;
      });
      expect(healthy(c)).to.include({
        status: 'Unknown',
        message: 'spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with \'/\'',
      });
      expect(c.spec.taints).to.deep.equal([maintenance]);
      expect(kube.events).to.have.length(1);
      expect(kube.events[0]).to.include({
        type: 'Warning',
        reason: 'InvalidLivenessProbe',
        message:
          'liveness probe is invalid and is not run: spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with \'/\'',
      });
      expect(await metric(metrics, 'cluster_probe_reconciler_invalid_probes', 'source="field"')).to.equal(1);
      expect(manager!.stateOf('m-bad')).to.equal('error');

      // Steady state: more periods, a change elsewhere in the Cluster, a resync: no probe, no write, no Event.
      const writes = kube.writes.length;
      kube.putCluster({ ...kube.cluster('m-bad')!, metadata: { name: 'm-bad', labels: { team: 'a' } } });
      await sleep(1_500);
      await manager!.idle();
      expect(hits).to.equal(0);
      expect(kube.writes.length).to.equal(writes);
      expect(kube.events).to.have.length(1);

      // Fixed: the probe runs, the condition and the metric follow.
      const fixed = kube.cluster('m-bad')!;
      fixed.spec.livenessProbe = { httpGet: { host: '127.0.0.1', port: httpPort, path: '/healthz' }, periodSeconds: 1 };
      kube.putCluster(fixed);
      await until('Healthy=True', () => (healthy(kube.cluster('m-bad'))?.status === 'True' ? true : undefined));
      expect(hits).to.be.greaterThan(0);
      expect(await metric(metrics, 'cluster_probe_reconciler_invalid_probes', 'source="field"')).to.equal(0);
    });

    it('checks the probe annotation and the migrated legacy annotation, with the deny list it connects with', async () => {
      kube.putCluster(
        aCluster('m-ann', { annotations: { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":70000}}' } }),
      );
      kube.putCluster(aCluster('m-legacy', { annotations: legacyUrl('http://169.254.169.254/latest') }));
      await start();
      const ann = await until('annotation invalid', () => healthy(kube.cluster('m-ann')));
      expect(ann).to.include({
        status: 'Unknown',
        reason: 'InvalidLivenessProbe',
        message:
          'metadata.annotations[cluster.karmada.io/liveness-probe].tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
      });
      const legacy = await until('legacy invalid', () => healthy(kube.cluster('m-legacy')));
      expect(legacy.reason).to.equal('InvalidLivenessProbe');
      expect(legacy.message).to.match(
        /^metadata\.annotations\[cluster\.karmada\.io\/health-checker\]\S*( \(migrated to \S+\))?: Forbidden: 169\.254\.169\.254 .*denied/,
      );
      expect(await metric(metrics, 'cluster_probe_reconciler_invalid_probes', 'source="annotation"')).to.equal(1);
      expect(await metric(metrics, 'cluster_probe_reconciler_invalid_probes', 'source="legacy"')).to.equal(1);
      kube.putCluster(aCluster('m-ann', { annotations: {} }));
      await until('condition removed', () => (healthy(kube.cluster('m-ann')) === undefined ? true : undefined));
      expect(await metric(metrics, 'cluster_probe_reconciler_invalid_probes', 'source="annotation"')).to.equal(0);
    });
  });

  describe("the member's CA from spec.secretRef", () => {
    const REVOKED = 'revoked-token';
    let pki: TestPki;
    let memberPort = 0;
    let otherPort = 0;

    before(async () => {
      pki = await testPki();
      const ok = (req: http.IncomingMessage, res: http.ServerResponse): void => {
        // A revoked token, as a member's apiserver refuses it.
        res.writeHead(req.headers.authorization === `Bearer ${REVOKED}` ? 401 : 200);
        res.end('ok');
      };
      const member = https.createServer({ key: pki.server.key, cert: pki.server.cert }, ok);
      const other = https.createServer({ key: pki.server.key, cert: pki.server.cert }, ok);
      memberPort = await listen(member);
      otherPort = await listen(other);
      servers.push(member, other);
    });

    const secret = (withCa = true): Record<string, string> => ({
      token: b64('not-a-real-token'),
      ...(withCa ? { caBundle: b64(pki.caPem) } : {}),
    });

    it('trusts the CA of the secretRef Secret for a legacy url aimed at spec.apiEndpoint', async () => {
      kube.putSecret('karmada-cluster', 'm-ca', secret());
      kube.putCluster(
        aCluster('m-ca', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-ca' },
          annotations: legacyUrl(`https://127.0.0.1:${memberPort}/readyz`),
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-ca')));
      expect(c).to.include({ status: 'True', reason: 'LivenessProbeSucceeded' });
      expect(kube.cluster('m-ca')!.spec.taints ?? []).to.deep.equal([]);
    });

    it('trusts it for a field probe with the host omitted too (the host of spec.apiEndpoint)', async () => {
      kube.putSecret('karmada-cluster', 'm-ca2', secret());
      kube.putCluster(
        aCluster('m-ca2', {
          apiEndpoint: `https://127.0.0.1:${memberPort}/`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-ca2' },
          probe: { httpGet: { scheme: 'HTTPS', port: memberPort, path: '/readyz' }, periodSeconds: 1 },
        }),
      );
      await start();
      expect(await until('Healthy', () => healthy(kube.cluster('m-ca2')))).to.include({ status: 'True' });
    });

    it('never sends that trust to another host:port: a probe elsewhere fails as before', async () => {
      kube.putSecret('karmada-cluster', 'm-other', secret());
      kube.putCluster(
        aCluster('m-other', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-other' },
          // Same host, the other port: a server with a certificate from the very same CA.
          probe: {
            httpGet: { scheme: 'HTTPS', host: '127.0.0.1', port: otherPort, path: '/readyz' },
            periodSeconds: 1,
            failureThreshold: 1,
          },
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-other')));
      expect(c.status).to.equal('False');
      expect(c.message).to.include('x509: certificate signed by unknown authority');
    });

    it("keeps the probe's own caBundle when it has one", async () => {
      kube.putSecret('karmada-cluster', 'm-own', secret());
      kube.putCluster(
        aCluster('m-own', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-own' },
          probe: {
            httpGet: { scheme: 'HTTPS', port: memberPort, path: '/readyz', caBundle: b64(pki.otherCaPem) },
            periodSeconds: 1,
            failureThreshold: 1,
          },
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-own')));
      expect(c.status).to.equal('False');
      expect(c.message).to.include('certificate signed by unknown authority');
    });

    it('honours spec.insecureSkipTLSVerification as Karmada does for that endpoint', async () => {
      kube.putSecret('karmada-cluster', 'm-insecure', secret(false));
      kube.putCluster(
        aCluster('m-insecure', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-insecure' },
          spec: { insecureSkipTLSVerification: true },
          annotations: legacyUrl(`https://127.0.0.1:${memberPort}/readyz`),
        }),
      );
      await start();
      expect(await until('Healthy', () => healthy(kube.cluster('m-insecure')))).to.include({ status: 'True' });
    });

    it('reports a missing Secret as Unknown/LivenessProbeError (no taint), and uses the Secret once it appears', async () => {
      kube.putCluster(
        aCluster('m-later', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-later' },
          probe: { httpGet: { scheme: 'HTTPS', port: memberPort, path: '/readyz' }, periodSeconds: 1 },
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-later')));
      expect(c).to.include({ status: 'Unknown', reason: 'LivenessProbeError' });
      expect(c.message).to.equal(
        'spec.secretRef: Secret "karmada-cluster/m-later" not found (it holds the CA of spec.apiEndpoint, which the probe targets)',
      );
      expect(kube.cluster('m-later')!.spec.taints ?? []).to.deep.equal([]);
      kube.putSecret('karmada-cluster', 'm-later', secret());
      await until('Healthy=True', () => (healthy(kube.cluster('m-later'))?.status === 'True' ? true : undefined));
    });

    it('reports a token the member refuses as Unknown/LivenessProbeError naming the Secret, never a taint', async () => {
      kube.putSecret('karmada-cluster', 'm-revoked', { ...secret(), token: b64(REVOKED) });
      kube.putCluster(
        aCluster('m-revoked', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-revoked' },
          probe: { apiServer: {}, periodSeconds: 1, failureThreshold: 1 },
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-revoked')));
      expect(c).to.include({ status: 'Unknown', reason: 'LivenessProbeError' });
      expect(c.message).to.equal(
        'spec.secretRef: Secret "karmada-cluster/m-revoked" key token: GET /readyz: statuscode: 401: the member refused the probe\'s credentials (token or client certificate)',
      );
      expect(kube.cluster('m-revoked')!.spec.taints ?? []).to.deep.equal([]);
      // A token that works again is used from the next run on.
      kube.putSecret('karmada-cluster', 'm-revoked', secret());
      await until('Healthy=True', () => (healthy(kube.cluster('m-revoked'))?.status === 'True' ? true : undefined));
    });

    it('names the Secret when its caBundle is not a CA bundle', async () => {
      kube.putSecret('karmada-cluster', 'm-badca', { caBundle: b64('not a certificate') });
      kube.putCluster(
        aCluster('m-badca', {
          apiEndpoint: `https://127.0.0.1:${memberPort}`,
          secretRef: { namespace: 'karmada-cluster', name: 'm-badca' },
          annotations: legacyUrl(`https://127.0.0.1:${memberPort}/readyz`),
        }),
      );
      await start();
      const c = await until('Healthy', () => healthy(kube.cluster('m-badca')));
      expect(c).to.include({ status: 'Unknown', reason: 'LivenessProbeError' });
      expect(c.message).to.match(/^spec\.secretRef: Secret "karmada-cluster\/m-badca" key caBundle: /);
    });
  });

  describe('a verdict half-written by a replica that stopped (control-plane faults e2e, defect 3)', () => {
    // A failure is written taint first, condition second; a recovery untaint first. A replica killed, cut off or
    // fenced between the two leaves them disagreeing; the next one must not undo the half that was written.
    const probe = (path: string) => httpProbe(httpPort, path, { periodSeconds: 1, failureThreshold: 2 });

    it('tainted with Healthy still True, its target failing: keeps the taint and writes only the condition', async () => {
      status = 500;
      kube.putCluster(
        aCluster('m-half-down', { taints: [maintenance, ours], probe: probe('/down'), conditions: [wasHealthy] }),
      );
      await start();
      await until('Healthy=False', () => (healthy(kube.cluster('m-half-down'))?.status === 'False' ? true : undefined));
      // Never a taint write: resumed as 'success' from the condition, the first reconcile lifted the taint, and the
      // probes put it back failureThreshold periods later.
      expect(kube.history.filter((h) => h.endsWith(' m-half-down'))).to.deep.equal([
        'status m-half-down',
        'event LivenessProbeFailed m-half-down',
      ]);
      expect(kube.cluster('m-half-down')!.spec.taints).to.deep.equal([maintenance, ours]);
    });

    it('untainted with Healthy still False, its target answering: never taints it again, writes Healthy=True', async () => {
      kube.putCluster(
        aCluster('m-half-up', {
          taints: [maintenance],
          probe: probe('/up'),
          conditions: [healthyCondition('False', { message: 'statuscode: 500' })],
        }),
      );
      await start();
      await until('Healthy=True', () => (healthy(kube.cluster('m-half-up'))?.status === 'True' ? true : undefined));
      expect(kube.history.filter((h) => h.startsWith('taints ') && h.endsWith(' m-half-up'))).to.deep.equal([]);
      expect(kube.cluster('m-half-up')!.spec.taints).to.deep.equal([maintenance]);
    });
  });

  describe('condition-only mode (--taint-effect none)', () => {
    it('writes Healthy=False and leaves every taint, ours included, to whoever manages them', async () => {
      status = 500;
      kube.putCluster(
        aCluster('m-cond', {
          taints: [maintenance, ours],
          probe: httpProbe(httpPort, '/healthz', { periodSeconds: 1, failureThreshold: 1 }),
        }),
      );
      await start('none');
      const c = await until('Healthy', () => healthy(kube.cluster('m-cond')));
      expect(c).to.include({ status: 'False', reason: 'LivenessProbeFailed' });
      status = 200;
      await until('Healthy=True', () => (healthy(kube.cluster('m-cond'))?.status === 'True' ? true : undefined));
      await manager!.idle();
      expect(kube.cluster('m-cond')!.spec.taints).to.deep.equal([maintenance, ours]);
      expect(kube.writes.filter((w) => w.startsWith('taints'))).to.deep.equal([]);
    });
  });
});
