// `cluster-probe dev up --karmada --host` (src/dev/host-playground.ts): Karmada with its host cluster as a real
// one-node Kubernetes and the chart installed on it with helm, the lines printed; then stopped with nothing left. In
// its own XDG_CACHE_HOME, so it never touches a real playground. Run by `npm run test:node` (the binaries and the
// image come from its environment).
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNHEALTHY_TAINT_KEY } from '../../packages/schema/src/api/constants.js';
import { devUpKarmadaHost } from '../../src/dev/host-playground.js';

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('cluster-probe dev up --karmada --host', function () {
  this.timeout(900_000);
  let cache: string;
  let saved: string | undefined;

  before(function () {
    saved = process.env.XDG_CACHE_HOME;
    cache = mkdtempSync(join(tmpdir(), 'cluster-probe-dev-host-'));
    process.env.XDG_CACHE_HOME = cache;
  });

  after(function () {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it('installs the chart on a real host cluster with the helm lines it prints, taints from the Pod, removes everything', async function () {
    let printed = '';
    const code = await devUpKarmadaHost({
      members: 2,
      progress: () => undefined,
      out: (text) => (printed += text),
      onReady: async ({ karmada, node, helmLines }) => {
        expect(helmLines).to.have.length(2);
        expect(helmLines[0]).to.include('--set target=karmada-apiserver');
        expect(helmLines[1]).to.include('--set target=host').and.to.include('karmadaKubeconfig.kubeconfig=');
        const ready = await node.kubectl([
          'get',
          'deployment',
          'cluster-probe-reconciler',
          '-n',
          'cluster-probe-system',
          '-o',
          'jsonpath={.status.readyReplicas}',
        ]);
        expect(ready.stdout.trim(), ready.stderr).to.equal('2');
        await karmada.setNodesReady('member1', false);
        await until('member1 tainted from the Pod', 60_000, async () => {
          const out = await karmada.kubectl(['get', 'cluster', 'member1', '-o', 'jsonpath={.spec.taints[*].key}']);
          return out.stdout.includes(UNHEALTHY_TAINT_KEY);
        });
      },
    });
    expect(code).to.equal(0);
    expect(printed).to.include('The chart was installed as its README says:');
    expect(printed.match(/^ {2}helm --kubeconfig /gm)).to.have.length(2);
    expect(existsSync(join(cache, 'karmada-cluster-probe', 'dev', 'state.json')), 'state file').to.equal(false);
    expect(spawnSync('ip', ['link', 'show', 'cprobe0']).status, 'bridge cprobe0 removed').to.not.equal(0);
  });
});
