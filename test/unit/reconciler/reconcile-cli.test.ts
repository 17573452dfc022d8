// `cluster-probe reconcile` flags that a Karmada operator reads first: condition-only mode for Karmada's
// ClusterTaintPolicy (--taint-effect None), and which apiserver --kubeconfig must name (karmada-apiserver's).
import { expect } from 'chai';
import { Command } from 'commander';
import { parseTaintEffect, register } from '../../../src/cli/reconcile.js';

/** What `cluster-probe reconcile --help` prints, examples included. */
function help(): string {
  let out = '';
  const program = new Command('cluster-probe').configureOutput({ writeOut: (s) => (out += s) });
  register(program);
  program.commands.find((c) => c.name() === 'reconcile')!.outputHelp();
  return out;
}

describe('reconcile CLI flags', () => {
  it('takes the taint effects, and None (any case) for condition-only mode', () => {
    expect(parseTaintEffect('NoSchedule')).to.equal('NoSchedule');
    expect(parseTaintEffect('NoExecute')).to.equal('NoExecute');
    expect(parseTaintEffect('None')).to.equal('none');
    expect(parseTaintEffect('none')).to.equal('none');
    expect(() => parseTaintEffect('PreferNoSchedule')).to.throw(/NoSchedule, NoExecute or None/);
  });

  it('explains condition-only mode for a ClusterTaintPolicy in --help', () => {
    const text = help().replace(/\s+/g, ' ');
    expect(text).to.include('--taint-effect <effect>');
    expect(text).to.match(/None: condition-only/);
    expect(text).to.include('ClusterTaintPolicy');
  });

  it('says in --help that on Karmada --kubeconfig is the karmada-apiserver kubeconfig, in-cluster the fallback', () => {
    const text = help().replace(/\s+/g, ' ');
    expect(text).to.include('karmada-apiserver');
    expect(text).to.match(/Secret mounted/);
    expect(text).to.match(/in-cluster/);
  });
});
