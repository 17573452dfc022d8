// Our probe engine against the kubelet's own prober (issue 29): every row of test/oracle/prober/cases.ts, real servers
// on 127.0.0.0/8 and ::1, is probed by the Go oracle test/oracle/kubernetes/prober (k8s.io/kubernetes v1.35.4
// pkg/probe/{http,tcp,grpc} as pkg/kubelet/prober runs them, built by scripts/build-oracle.mjs) and by runProbe. A row
// agrees (verdict, message, warnings, what the servers received: judge.ts), or differs exactly as
// test/oracle/prober/differences.ts lists it, with its reason. `npx tsx test/oracle/prober/figures.ts` prints the
// figures and the entries of rows that changed.
import { expect } from 'chai';
import { ALL_PROBER_ROWS, HAS_IPV6_LOOPBACK, PROBER_ROWS } from './prober/cases.js';
import { PROBER_DIFFERENCES } from './prober/differences.js';
import { differenceOf, runTable, type RowRun } from './prober/judge.js';

/** A cold build of the oracles (an empty Go build cache) took 78 s here; a run of the table about 10 s. */
const BUILD_AND_RUN_MS = 300_000;

describe("the kubelet's prober as the oracle of the probe engine (test/oracle/prober)", function () {
  const runs = new Map<string, RowRun>();

  before(async function () {
    this.timeout(BUILD_AND_RUN_MS);
    for (const run of await runTable()) runs.set(run.name, run);
  });

  it('has at least 100 rows, with unique names, across httpGet, tcpSocket and grpc', async () => {
    expect(PROBER_ROWS.length).to.be.at.least(100);
    expect(new Set(PROBER_ROWS.map((r) => r.name)).size).to.equal(PROBER_ROWS.length);
    const handlers = new Set<string>();
    for (const row of PROBER_ROWS) {
      const p = await row.probe({ host: '127.0.0.1', port: 1 });
      handlers.add(Object.keys(p).find((k) => k !== 'timeoutSeconds') ?? '');
    }
    expect([...handlers].sort()).to.deep.equal(['grpc', 'httpGet', 'tcpSocket']);
  });

  it('runs the rows on the IPv6 loopback (::1)', function () {
    if (!HAS_IPV6_LOOPBACK) this.skip(); // no ::1 on this machine: those rows cannot run, and are shown pending
    expect(PROBER_ROWS.filter((r) => r.ipv6 === true).length).to.be.at.least(5);
  });

  it('lists differences only for rows of the table, each with its reason', () => {
    const names = new Set(ALL_PROBER_ROWS.map((r) => r.name));
    for (const [name, listed] of Object.entries(PROBER_DIFFERENCES)) {
      expect(names.has(name), `differences.ts lists "${name}", which is no row of cases.ts`).to.equal(true);
      expect(listed.why.trim(), `differences.ts: "${name}" gives no reason`).to.not.equal('');
    }
  });

  it("sends the kubelet's own User-Agent from the oracle (kube-probe/<major>.<minor> of go.mod's version)", () => {
    const run = runs.get('http: status 200');
    expect(run?.kubelet.received.requests[0]?.headers).to.include('user-agent: <default user-agent>');
    expect(run?.ours.received.requests[0]?.headers).to.include('user-agent: <default user-agent>');
  });

  for (const row of PROBER_ROWS) {
    const listed = PROBER_DIFFERENCES[row.name];
    const title =
      listed === undefined ? `agrees with the kubelet: ${row.name}` : `differs from the kubelet as listed: ${row.name}`;
    it(title, () => {
      const run = runs.get(row.name);
      if (run === undefined) throw new Error(`row "${row.name}" did not run`);
      const diff = differenceOf(run.kubelet, run.ours);
      const hint = 'npx tsx test/oracle/prober/figures.ts prints the entry as it is now';
      if (listed === undefined) {
        expect(diff, `the row differs from the kubelet and differences.ts does not list it (${hint})`).to.equal(
          undefined,
        );
      } else {
        expect(diff, `the row now agrees with the kubelet: remove it from differences.ts`).to.not.equal(undefined);
        expect(diff, `the row differs otherwise than differences.ts says (${hint})`).to.deep.equal({
          kubelet: listed.kubelet,
          ours: listed.ours,
        });
      }
    });
  }
});
