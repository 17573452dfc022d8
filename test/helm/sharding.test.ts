// The chart's one scaling value (issue 31): `reconciler.replicas: N` with `reconciler.sharding: lease` (the default)
// runs every replica active with --sharding lease when N > 1; one replica, or sharding none, keeps the leader
// election. Both halves of a Karmada install are rendered from the same values, as a user installs them: the host half
// (Deployment, PDB) and the karmada-apiserver half (the Lease RBAC, in the namespace the replicas' Leases live in).
import { expect } from 'chai';
import { container, find, NAMESPACE, removeHelmHome, render, renderError, renderText, type Obj } from './helm.js';

const LEASE_RBAC_FULL = ['get', 'list', 'watch', 'create', 'update', 'delete'];
const LEASE_RBAC_LEADER = ['get', 'create', 'update'];

/** The rules of the reconciler's Lease Role, or undefined when the chart renders none. */
function leaseRole(objects: Obj[]): Obj | undefined {
  return objects.find(
    (o) =>
      o.kind === 'Role' &&
      (o.rules as Obj[] | undefined)?.some((r) => (r.resources as string[]).includes('leases')) === true,
  );
}

const both = (values: string[]): { host: Obj[]; karmada: Obj[] } => ({
  host: render(['--set', 'target=host', ...values]),
  karmada: render(['--set', 'target=karmada-apiserver', ...values]),
});

describe('the Helm chart scales with reconciler.replicas (Lease sharding)', function () {
  this.timeout(120_000);
  after(removeHelmHome);

  it('replicas 3: every replica active with --sharding lease, its identity the Pod name, Lease RBAC to list and watch the group', () => {
    const { host, karmada } = both(['--set', 'reconciler.replicas=3']);
    const deployment = find(host, 'Deployment', 'cluster-probe-reconciler');
    expect(deployment.spec.replicas).to.equal(3);
    const c = container(deployment);
    expect(c.args).to.include.members([
      '--sharding=lease',
      `--lease-namespace=${NAMESPACE}`,
      '--lease-name=cluster-probe-reconciler',
      '--lease-duration=15',
      '--identity=$(POD_NAME)',
    ]);
    expect(c.args).not.to.include('--leader-elect');
    expect(c.args.filter((a: string) => a.startsWith('--shard-'))).to.deep.equal([]);
    expect(c.env).to.deep.include({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    expect(find(host, 'PodDisruptionBudget').spec.minAvailable).to.equal(1);
    // The host half calls no API of the host cluster: no RBAC there, the Leases live in karmada-apiserver.
    expect(leaseRole(host)).to.equal(undefined);
    const role = leaseRole(karmada)!;
    expect(role.metadata.namespace).to.equal(NAMESPACE);
    expect(role.rules).to.deep.equal([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: LEASE_RBAC_FULL },
    ]);
    expect(find(karmada, 'RoleBinding', role.metadata.name).roleRef.name).to.equal(role.metadata.name);
  });

  it('replicas 3 on crd-served: the same Deployment arguments and the Lease RBAC beside it', () => {
    const objects = render(['--set', 'target=crd-served', '--set', 'reconciler.replicas=3']);
    expect(container(find(objects, 'Deployment', 'cluster-probe-reconciler')).args).to.include('--sharding=lease');
    expect(leaseRole(objects)!.rules[0].verbs).to.deep.equal(LEASE_RBAC_FULL);
  });

  it('passes the lease duration the failover bound depends on', () => {
    const host = render(['--set', 'target=host', '--set', 'reconciler.leaderElection.leaseDuration=8']);
    expect(container(find(host, 'Deployment')).args).to.include('--lease-duration=8');
  });

  it('replicas 1: no sharding, the leader election kept (a rollout surge Pod waits for the Lease), no PDB', () => {
    const { host, karmada } = both(['--set', 'reconciler.replicas=1']);
    const args: string[] = container(find(host, 'Deployment')).args;
    expect(args).to.include('--leader-elect');
    expect(args).not.to.include('--sharding=lease');
    expect(host.filter((o) => o.kind === 'PodDisruptionBudget')).to.deep.equal([]);
    expect(leaseRole(karmada)!.rules[0].verbs).to.deep.equal(LEASE_RBAC_LEADER);
  });

  it('sharding none with replicas 3: one active replica by leader election, as before sharding', () => {
    const { host, karmada } = both(['--set', 'reconciler.replicas=3', '--set', 'reconciler.sharding=none']);
    const args: string[] = container(find(host, 'Deployment')).args;
    expect(args).to.include('--leader-elect');
    expect(args).not.to.include('--sharding=lease');
    expect(find(host, 'PodDisruptionBudget').spec.minAvailable).to.equal(1);
    expect(leaseRole(karmada)!.rules[0].verbs).to.deep.equal(LEASE_RBAC_LEADER);
  });

  it('one replica without election and without sharding renders no Lease RBAC', () => {
    const karmada = render([
      '--set',
      'target=karmada-apiserver',
      '--set',
      'reconciler.replicas=1',
      '--set',
      'reconciler.leaderElection.enabled=false',
    ]);
    expect(leaseRole(karmada)).to.equal(undefined);
  });

  it('sharding lease needs no leader election: replicas 3 with it off still render', () => {
    const host = render([
      '--set',
      'target=host',
      '--set',
      'reconciler.replicas=3',
      '--set',
      'reconciler.leaderElection.enabled=false',
    ]);
    expect(container(find(host, 'Deployment')).args).to.include('--sharding=lease');
  });

  it('refuses a sharding mode it does not know', () => {
    expect(renderError(['--set', 'target=host', '--set', 'reconciler.sharding=static'])).to.match(/sharding/);
  });

  it('installs no CRD on karmada-apiserver, whatever the replicas (a Cluster CRD shadows the aggregated API)', () => {
    for (const values of [
      ['--set', 'reconciler.replicas=3'],
      ['--set', 'reconciler.replicas=1'],
    ]) {
      const text = renderText(['--set', 'target=karmada-apiserver', ...values]);
      expect(text).not.to.match(/^kind:\s*CustomResourceDefinition/m);
      expect(text).not.to.contain('clusters.cluster.karmada.io');
    }
  });
});
