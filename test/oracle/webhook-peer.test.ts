// The Go peer of the webhook bench (bench/webhook/peer/main.go, built by scripts/build-oracle.mjs --webhook-peer)
// answers as a working webhook does, so the bench cannot compare against a peer that fails every request: a valid
// Cluster allowed, an invalid one denied with Karmada's own field errors, and a /mutate answer that is a JSON Patch
// which applies and makes Karmada's mutation. It lives beside the oracles because, like them, it is Go built inside
// Karmada's source tree. CLUSTER_PROBE_WEBHOOK_PEER points it at another binary.
import { expect } from 'chai';
import fastJsonPatch from 'fast-json-patch';
import { type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWebhookPeer, webhookPeerBinary } from '../../bench/webhook/peer.js';
import { DEFAULT_BODY, MIGRATE_BODY, VALIDATE_BODY } from '../../bench/webhook/reviews.js';
import { CA_CERT_FILE, makeCertificates } from '../../src/certs/index.js';

interface Answer {
  status: number;
  review: {
    apiVersion?: string;
    kind?: string;
    response?: {
      uid?: string;
      allowed?: boolean;
      status?: { code?: number; message?: string };
      patch?: string;
      patchType?: string;
    };
  };
}

type Review = { request: { uid: string; object: Record<string, unknown> } };

function post(port: number, ca: Buffer, pathName: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path: pathName, method: 'POST', ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, review: JSON.parse(text) as Answer['review'] });
          } catch {
            reject(
              new Error(`${pathName} answered HTTP ${String(res.statusCode)} with a body that is not JSON: ${text}`),
            );
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A bench review with its Cluster changed by edit. */
function edited(body: string, edit: (cluster: Record<string, Record<string, unknown>>) => void): string {
  const review = JSON.parse(body) as Review;
  edit(review.request.object as Record<string, Record<string, unknown>>);
  return JSON.stringify(review);
}

describe('the Go webhook peer of bench/webhook (controller-runtime over Karmada’s own Cluster code)', function () {
  let dir: string;
  let ca: Buffer;
  let peer: ChildProcess | undefined;
  let port: number;

  before(async function () {
    this.timeout(30 * 60_000); // a cold build compiles controller-runtime and Karmada's packages; a warm one, seconds
    const binary = webhookPeerBinary();
    dir = await mkdtemp(path.join(tmpdir(), 'cluster-probe-peer-test-'));
    await makeCertificates(dir, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    ca = readFileSync(path.join(dir, CA_CERT_FILE));
    const started = await startWebhookPeer(binary, dir);
    peer = started.child;
    port = started.port;
  });

  after(async function () {
    peer?.kill('SIGTERM');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const [name, body] of [
    ['a legacy review', MIGRATE_BODY],
    ['a probe review', VALIDATE_BODY],
  ] as const) {
    it(`allows ${name} of the bench on /validate, answering its uid`, async function () {
      const { status, review } = await post(port, ca, '/validate?timeout=5s', body);
      expect(status).to.equal(200);
      expect(review.apiVersion).to.equal('admission.k8s.io/v1');
      expect(review.kind).to.equal('AdmissionReview');
      expect(review.response?.uid).to.equal((JSON.parse(body) as Review).request.uid);
      expect(review.response?.allowed, JSON.stringify(review.response)).to.equal(true);
    });
  }

  it('denies an invalid Cluster on /validate with Karmada’s field errors, every one', async function () {
    const body = edited(VALIDATE_BODY, (cluster) => {
      cluster.spec!.syncMode = 'Sideways';
      cluster.spec!.taints = [{ key: 'cluster.karmada.io/maintenance', effect: 'Sometimes' }];
      cluster.spec!.secretRef = { namespace: 'karmada-cluster', name: '' };
    });
    const { status, review } = await post(port, ca, '/validate', body);
    expect(status).to.equal(200);
    expect(review.response?.allowed).to.equal(false);
    expect(review.response?.status?.code).to.equal(403);
    const message = review.response?.status?.message ?? '';
    expect(message).to.include('spec.syncMode: Unsupported value: "Sideways": supported values: "Pull", "Push"');
    expect(message).to.include('spec.secretRef.name: Required value');
    expect(message).to.include('spec.taints[0].effect: Unsupported value: "Sometimes"');
  });

  it('denies a Cluster whose name Karmada refuses', async function () {
    const body = edited(VALIDATE_BODY, (cluster) => {
      cluster.metadata!.name = 'Member_Dev';
    });
    const { review } = await post(port, ca, '/validate', body);
    expect(review.response?.allowed).to.equal(false);
    expect(review.response?.status?.message).to.include('metadata.name: Invalid value: "Member_Dev"');
  });

  for (const [name, body] of [
    ['a legacy review', MIGRATE_BODY],
    ['a probe review', DEFAULT_BODY],
  ] as const) {
    it(`answers ${name} on /mutate with a JSON Patch that applies and adds Karmada’s resource models`, async function () {
      const { status, review } = await post(port, ca, '/mutate', body);
      expect(status).to.equal(200);
      const response = review.response!;
      expect(response.uid).to.equal((JSON.parse(body) as Review).request.uid);
      expect(response.allowed).to.equal(true);
      expect(response.patchType).to.equal('JSONPatch');
      const patch = JSON.parse(
        Buffer.from(response.patch ?? '', 'base64').toString('utf8'),
      ) as fastJsonPatch.Operation[];
      const original = (JSON.parse(body) as Review).request.object;
      expect(fastJsonPatch.validate(patch, original), 'the patch does not apply to the object sent').to.equal(
        undefined,
      );
      const mutated = fastJsonPatch.applyPatch(structuredClone(original), patch, true, false).newDocument as {
        apiVersion?: string;
        spec: Record<string, unknown> & { resourceModels?: { grade: number }[] };
      };
      // Karmada's strategy on create: the default resource models, grades 0-8; nothing the Go types do not know
      // (the probe) and no apiVersion or kind is removed.
      expect(mutated.spec.resourceModels?.map((m) => m.grade)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(mutated.apiVersion).to.equal('cluster.karmada.io/v1alpha1');
      expect(patch.filter((op) => op.op === 'remove')).to.deep.equal([]);
    });
  }

  it('makes Karmada’s MutateCluster on /mutate: a lone zone moves to zones, a NoExecute taint gets timeAdded', async function () {
    const body = edited(DEFAULT_BODY, (cluster) => {
      delete cluster.spec!.zones;
      cluster.spec!.zone = 'eu-west-1a';
      cluster.spec!.taints = [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }];
    });
    const { review } = await post(port, ca, '/mutate', body);
    const patch = JSON.parse(
      Buffer.from(review.response?.patch ?? '', 'base64').toString('utf8'),
    ) as fastJsonPatch.Operation[];
    const original = (JSON.parse(body) as Review).request.object;
    const { spec } = fastJsonPatch.applyPatch(structuredClone(original), patch, true, false).newDocument as {
      spec: { zone?: string; zones?: string[]; taints?: { timeAdded?: string }[] };
    };
    expect(spec.zones).to.deep.equal(['eu-west-1a']);
    expect(spec.zone).to.equal(undefined);
    expect(spec.taints?.[0]?.timeAdded).to.be.a('string');
  });
});
