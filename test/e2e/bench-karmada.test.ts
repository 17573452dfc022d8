// The fleet bench on the real Karmada, small, so that it does not rot (issue 23): bench/reconciler/index.ts --karmada
// with 200 Pull Clusters in karmada-aggregated-apiserver, period 2 s, the compiled reconciler from dist/ (npm ci
// builds it). Its figures are not asserted (timings on a shared machine); what must hold is: it runs to the end, no
// write in the steady state, no Cluster wrongly tainted, the failing region tainted, and no taint at any moment while
// every target is cut (the disruption guard).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

interface BenchResult {
  clusters: number;
  steady: { writesPerMinute: number; probesPerSecond: number };
  failover: { failing: number; wronglyTainted: number; allTaintedS: number; boundS: number };
  partition: {
    failing: number;
    taintsSeenDuringPartition: number;
    taintedAtEnd: number;
    withheldAfterHolding: { clusters: number };
  };
}

describe('bench/reconciler --karmada, small (e2e)', function () {
  this.timeout(8 * 60_000);

  it('runs to the end on Karmada: 0 steady writes, the failed region tainted and nothing else, 0 taints when cut off', async function () {
    if (!existsSync(join(REPO, 'dist/src/cli/reconcile.js'))) {
      throw new Error('dist/ is missing: run `npm run build` (npm ci does it)');
    }
    const args = [
      '--import',
      'tsx',
      'bench/reconciler/index.ts',
      '--karmada',
      '--karmada-qps',
      '100',
      '--clusters',
      '200',
      '--period',
      '2',
      '--steady',
      '5',
    ];
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
      if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
    });
    const killer = setTimeout(() => child.kill('SIGTERM'), 7 * 60_000);
    const code = await new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
    clearTimeout(killer);
    const tail = stderr.split('\n').slice(-15).join('\n');
    expect(code, `bench exit; its last lines:\n${tail}`).to.equal(0);
    const result = JSON.parse(stdout) as BenchResult;
    process.stderr.write(
      `      200 Clusters on Karmada: ${result.steady.probesPerSecond.toFixed(0)} probes/s; ` +
        `${result.failover.failing} failing tainted after ${result.failover.allTaintedS} s (bound ${result.failover.boundS} s); ` +
        `cut off: ${result.partition.withheldAfterHolding.clusters} withheld\n`,
    );
    expect(result.clusters).to.equal(200);
    expect(result.steady.writesPerMinute, 'writes per minute in steady state').to.equal(0);
    expect(result.failover.failing, 'one region of ten').to.equal(20);
    expect(result.failover.wronglyTainted, 'Clusters tainted that did not fail').to.equal(0);
    expect(result.partition.taintsSeenDuringPartition, 'taints seen while every target was cut').to.equal(0);
    expect(result.partition.taintedAtEnd).to.equal(0);
    expect(result.partition.withheldAfterHolding.clusters, 'every Cluster withheld').to.equal(200);
  });
});
