// The reconciler's heap bound is the CLI's to set (src/cli/heap-growth.ts), once, and an operator's own node flag
// wins; the library (ProbeWorkers, ClusterController) sets no process-wide V8 flag (issue 40).
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { HEAP_GROWING_PERCENT, boundHeapGrowth } from '../../../src/cli/heap-growth.js';

describe('cluster-probe reconcile: the old generation bound', () => {
  it('sets --heap-growing-percent to HEAP_GROWING_PERCENT when node was given none', () => {
    const set: string[] = [];
    expect(boundHeapGrowth([], (f) => set.push(f))).to.equal(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(set).to.deep.equal([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
    expect(HEAP_GROWING_PERCENT).to.be.within(1, 100);
  });

  it("leaves the operator's own --heap-growing-percent alone", () => {
    const set: string[] = [];
    expect(boundHeapGrowth(['--heap-growing-percent=60'], (f) => set.push(f))).to.equal(undefined);
    expect(set).to.deep.equal([]);
  });

  it('is called by runReconcile and by no module of the library', () => {
    const cli = readFileSync(new URL('../../../src/cli/reconcile.ts', import.meta.url), 'utf8');
    expect(cli).to.match(/async function runReconcile[^]*?\n {2}boundHeapGrowth\(\);/);
    const dir = new URL('../../../src/reconciler/', import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files).to.include('probe-workers.ts');
    for (const f of files)
      expect(readFileSync(new URL(f, dir), 'utf8'), f).to.not.match(/setFlagsFromString|boundHeapGrowth/);
  });
});
