// The client tells every request to onResponse with its method and code (client-go's rest_client_requests_total):
// what the reconciler's api_requests_total counts, per replica (bench/reconciler --replicas reads it). A real HTTP
// server on 127.0.0.1: answers 200 and 404, a watch, and a port that refuses (no code: `error`).
import { expect } from 'chai';
import http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeApiError, KubeClient, isResourceVersionConflict } from '../../../src/kube/index.js';
import { jsonPatchTestFailed } from '../../support/kube-status.js';

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    // client-node allows plain HTTP only with skipTLSVerify.
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

describe('kube client: every request told with its method and code', function () {
  this.timeout(60_000);
  let server: http.Server;
  let port = 0;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.includes('watch=true')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n');
        return;
      }
      if (req.url?.startsWith('/raced') === true || req.url?.startsWith('/invalid') === true) {
        // kube-apiserver's answers, as they come: a JSON patch whose test failed, and a field error.
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            req.url.startsWith('/raced')
              ? jsonPatchTestFailed('/metadata/resourceVersion', true)
              : {
                  kind: 'Status',
                  status: 'Failure',
                  message: 'Cluster.cluster.karmada.io "m" is invalid: spec.syncMode: Required value',
                  reason: 'Invalid',
                  details: {
                    causes: [
                      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.syncMode' },
                      null,
                      { message: 7 },
                    ],
                  },
                  code: 422,
                },
          ),
        );
        return;
      }
      const missing = req.url?.startsWith('/missing') === true;
      res.writeHead(missing ? 404 : 200, { 'content-type': 'application/json' });
      res.end(missing ? '{"kind":"Status","code":404,"reason":"NotFound","message":"not found"}' : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts answers by code, a watch started as WATCH, and a request that got no answer as error', async () => {
    const told: string[] = [];
    const client = new KubeClient(kubeConfig(`http://127.0.0.1:${port}`), {
      onResponse: (method, code) => told.push(`${method} ${code}`),
    });
    await client.request('GET', '/present');
    await client.request('PATCH', '/present', { body: {} });
    await client.request('GET', '/missing').catch(() => undefined);
    await client.watch('/w', {}, () => undefined, new AbortController().signal);
    client.close();
    // A closed port on this machine: the listener is gone, the connection is refused.
    const gone = http.createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const closedPort = (gone.address() as { port: number }).port;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const refused = new KubeClient(kubeConfig(`http://127.0.0.1:${closedPort}`), {
      onResponse: (method, code) => told.push(`${method} ${code}`),
    });
    let failed = false;
    await refused.request('DELETE', '/x').catch(() => (failed = true));
    refused.close();
    expect(failed).to.equal(true);
    expect(told).to.deep.equal(['GET 200', 'PATCH 200', 'GET 404', 'WATCH 200', 'DELETE error']);
  });

  it("keeps a Status' causes, says the ones its message does not, and tells a lost resourceVersion race from a field error", async () => {
    const client = new KubeClient(kubeConfig(`http://127.0.0.1:${port}`));
    const raced = (await client.request('PATCH', '/raced', { body: [] }).catch((e: unknown) => e)) as KubeApiError;
    const invalid = (await client.request('PATCH', '/invalid', { body: [] }).catch((e: unknown) => e)) as KubeApiError;
    client.close();
    expect(raced).to.be.instanceOf(KubeApiError);
    expect(raced.causes).to.deep.equal(['testing value /metadata/resourceVersion failed: test failed']);
    expect(raced.message).to.equal(
      'PATCH /raced: 422 Invalid: the server rejected our request due to an error in our request ' +
        '(testing value /metadata/resourceVersion failed: test failed)',
    );
    expect(isResourceVersionConflict(raced)).to.equal(true);
    expect(invalid.causes).to.deep.equal(['Required value']);
    expect(invalid.message).to.equal(
      'PATCH /invalid: 422 Invalid: Cluster.cluster.karmada.io "m" is invalid: spec.syncMode: Required value',
    );
    expect(isResourceVersionConflict(invalid)).to.equal(false);
    expect(isResourceVersionConflict(new KubeApiError(409, 'Conflict', 'x'))).to.equal(true);
    expect(isResourceVersionConflict(new Error('409'))).to.equal(false);
  });
});
