// `cluster-probe status` rows and their formatting: the verdict from the Healthy condition (the guard's withheld
// reasons among them), the probe's target, our taint only, kubectl-style ages, a member's message made safe for a
// terminal, colour only when asked, JSON/YAML with a summary, and the exit status a script gates on.
import { expect } from 'chai';
import { parse } from 'yaml';
import { INVALID_PROBE_REASON, REASONS } from '../../../src/reconciler/desired-state.js';
import { type Cluster } from '../../../packages/schema/src/api/index.js';
import { WITHHELD_REASONS } from '../../../src/facts/disruption.js';
import {
  age,
  exitCodeOf,
  printable,
  renderStatus,
  renderStatusAsync,
  statusRow,
  statusRows,
} from '../../../src/cli/status.js';

const NOW = Date.parse('2026-12-02T10:00:00Z');

function cluster(yaml: string): Cluster {
  return parse(yaml) as Cluster;
}

const member1 = cluster(`
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member1
  annotations:
    cluster.karmada.io/liveness-probe: '{"httpGet":{"host":"10.0.0.7","port":8080,"path":"/healthz"},"periodSeconds":10}'
spec:
  taints:
    - key: cluster.karmada.io/unhealthy
      effect: NoSchedule
    - key: example.com/maintenance
      effect: NoExecute
status:
  conditions:
    - type: Ready
      status: "True"
    - type: Healthy
      status: "False"
      reason: ${REASONS.failure}
      message: "HTTP probe failed with statuscode: 503"
      lastTransitionTime: "2026-12-02T09:55:00Z"
`);

const member2 = cluster(`
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member2
spec:
  livenessProbe:
    tcpSocket:
      port: 6443
status:
  conditions:
    - type: Healthy
      status: "True"
      reason: ${REASONS.success}
      lastTransitionTime: "2026-12-01T07:00:00Z"
`);

const unknown = (name: string, reason: string): Cluster =>
  cluster(`
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
spec:
  livenessProbe:
    apiServer: {}
status:
  conditions:
    - type: Healthy
      status: Unknown
      reason: ${reason}
      message: "held"
      lastTransitionTime: "2026-12-02T09:59:30Z"
`);

describe('cluster-probe status: rows', () => {
  it('a Healthy=False Cluster is failing, shows its probe target and only our taint', () => {
    expect(statusRow(member1)).to.deep.equal({
      cluster: 'member1',
      probe: 'httpGet 10.0.0.7:8080/healthz',
      probeSource: 'annotation',
      verdict: 'failing',
      healthy: 'False',
      reason: REASONS.failure,
      message: 'HTTP probe failed with statuscode: 503',
      since: '2026-12-02T09:55:00Z',
      taints: ['NoSchedule'],
      ready: 'True',
    });
  });

  it('every reason the disruption guard withholds with is the withheld verdict, not an error', () => {
    for (const reason of Object.values(WITHHELD_REASONS))
      expect(statusRow(unknown('m', reason)).verdict, reason).to.equal('withheld');
    expect(statusRow(unknown('m', REASONS.error)).verdict).to.equal('error');
    expect(statusRow(unknown('m', INVALID_PROBE_REASON)).verdict).to.equal('invalid');
  });

  it('a probe without a condition yet is pending; no probe at all is unprobed', () => {
    const pending = cluster('metadata: {name: p}\nspec: {livenessProbe: {grpc: {port: 9000}}}');
    expect(statusRow(pending)).to.include({ verdict: 'pending', probe: 'grpc :9000', probeSource: 'field' });
    const none = cluster('metadata: {name: n}\nspec: {}');
    expect(statusRow(none)).to.include({ verdict: 'unprobed', probe: '<none>', probeSource: 'none' });
    const broken = cluster("metadata: {name: b, annotations: {cluster.karmada.io/liveness-probe: '{'}}");
    expect(statusRow(broken)).to.include({ probe: '<unreadable>', probeSource: 'annotation' });
  });

  it('escapes control characters a member put in its message (no terminal escape sequences pass)', () => {
    const evil = unknown('m', REASONS.error);
    evil.status!.conditions![0]!.message = 'bad\x1b]0;pwned\x07\nline';
    expect(statusRow(evil).message).to.equal('bad\\u001b]0;pwned\\u0007 line');
    expect(printable('ok')).to.equal('ok');
  });

  it('sorts by name and exits 1 only when a Cluster is failing', () => {
    const rows = statusRows([member2, member1]);
    expect(rows.map((r) => r.cluster)).to.deep.equal(['member1', 'member2']);
    expect(exitCodeOf(rows)).to.equal(1);
    expect(exitCodeOf(statusRows([member2, unknown('w', WITHHELD_REASONS.proberDisrupted)]))).to.equal(0);
    expect(exitCodeOf([])).to.equal(0);
  });
});

describe('cluster-probe status: formatting', () => {
  it('ages read as kubectl writes them', () => {
    const ago = (s: number): string => age(new Date(NOW - s * 1000).toISOString(), NOW);
    expect([
      ago(45),
      ago(310),
      ago(900),
      ago(3 * 3600 + 1200),
      ago(27 * 3600),
      ago(50 * 3600),
      ago(400 * 86400),
    ]).to.deep.equal(['45s', '5m10s', '15m', '3h20m', '27h', '2d2h', '400d']);
    expect(age(undefined, NOW)).to.equal('-');
  });

  it('a table with the issue’s columns, aligned, no colour unless asked', () => {
    const text = renderStatus(statusRows([member1, member2]), { output: 'table', color: false, now: NOW });
    expect(text).to.equal(
      [
        'CLUSTER   PROBE                           HEALTHY   REASON                   SINCE   TAINT        MESSAGE',
        'member1   httpGet 10.0.0.7:8080/healthz   False     LivenessProbeFailed      5m      NoSchedule   HTTP probe failed with statuscode: 503',
        'member2   tcpSocket :6443                 True      LivenessProbeSucceeded   27h     -',
        '',
      ].join('\n'),
    );
    expect(text).not.to.include('\x1b');
    const coloured = renderStatus(statusRows([member1]), { output: 'table', color: true, now: NOW });
    expect(coloured).to.include('\x1b[31mFalse\x1b[0m');
  });

  it('-o wide adds READY and SOURCE and keeps the whole message', () => {
    const long = unknown('m', REASONS.error);
    long.status!.conditions![0]!.message = 'x'.repeat(200);
    const wide = renderStatus(statusRows([long]), { output: 'wide', color: false, now: NOW });
    expect(wide.split('\n')[0]).to.match(/TAINT\s+READY\s+SOURCE\s+MESSAGE$/);
    expect(wide).to.include('x'.repeat(200));
    const table = renderStatus(statusRows([long]), { output: 'table', color: false, now: NOW });
    expect(table).not.to.include('x'.repeat(81));
  });

  it('-o json and -o yaml hold every row and a count by verdict', async () => {
    const rows = statusRows([member1, member2, unknown('m3', WITHHELD_REASONS.tooManyUnhealthy)]);
    const json = JSON.parse(renderStatus(rows, { output: 'json', color: true, now: NOW })) as {
      clusters: { cluster: string }[];
      summary: Record<string, number>;
    };
    expect(json.clusters.map((c) => c.cluster)).to.deep.equal(['m3', 'member1', 'member2']);
    expect(json.summary).to.include({ total: 3, healthy: 1, failing: 1, withheld: 1, error: 0 });
    const yaml = parse(await renderStatusAsync(rows, { output: 'yaml', color: true, now: NOW })) as unknown;
    expect(yaml).to.deep.equal(json);
  });
});
