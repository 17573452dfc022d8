// Smoke test of the e2e harness itself: a real kube-apiserver and etcd come up, answer kubectl, serve a CRD,
// and leave nothing listening once stopped.
import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { startControlPlane, type ControlPlane } from './harness/controlplane.js';

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    kind: Widget
    plural: widgets
    singular: widget
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: integer
                  minimum: 1
`;

function portIsOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('e2e control plane', function () {
  this.timeout(180_000);
  let cp: ControlPlane | undefined;

  before(async function () {
    cp = await startControlPlane();
  });

  after(async function () {
    await cp?.stop();
  });

  function controlPlane(): ControlPlane {
    if (!cp) throw new Error('control plane did not start');
    return cp;
  }

  it('answers kubectl with the admin kubeconfig', async function () {
    const result = await controlPlane().kubectl(['get', 'ns', 'default', '-o', 'name']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim()).to.equal('namespace/default');
  });

  it('reports a v1.35 server to kubectl version', async function () {
    const result = await controlPlane().kubectl(['version', '-o', 'json']);
    expect(result.code, result.stderr).to.equal(0);
    const version = JSON.parse(result.stdout) as { serverVersion?: { gitVersion?: string; minor?: string } };
    expect(version.serverVersion?.gitVersion).to.match(/^v1\.35\.\d+$/);
    expect(version.serverVersion?.minor).to.equal('35');
  });

  it('enforces RBAC: an unknown user is forbidden to list namespaces', async function () {
    const result = await controlPlane().kubectl(['get', 'ns', '--as=nobody']);
    expect(result.code).to.not.equal(0);
    expect(result.stderr).to.match(/forbidden/i);
  });

  it('establishes an applied CRD and validates its objects', async function () {
    const plane = controlPlane();
    const crdPath = join(plane.dir, 'widgets-crd.yaml');
    writeFileSync(crdPath, WIDGET_CRD);
    await plane.applyCrd(crdPath);

    const created = await plane.kubectl(['apply', '-f', '-'], {
      input: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: small}\nspec: {size: 1}\n',
    });
    expect(created.code, created.stderr).to.equal(0);
    const rejected = await plane.kubectl(['apply', '-f', '-'], {
      input: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: empty}\nspec: {size: 0}\n',
    });
    expect(rejected.code).to.not.equal(0);
    expect(rejected.stderr).to.include('spec.size');
  });

  it('closes its ports and removes its directory on stop', async function () {
    const plane = controlPlane();
    const { apiserver, etcdClient, etcdPeer } = plane.ports;
    expect(await portIsOpen(apiserver)).to.equal(true);
    await plane.stop();
    for (const port of [apiserver, etcdClient, etcdPeer]) {
      expect(await portIsOpen(port), `port ${port} still open after stop`).to.equal(false);
    }
    expect(existsSync(plane.dir)).to.equal(process.env.CLUSTER_PROBE_E2E_KEEP === '1');
  });
});
