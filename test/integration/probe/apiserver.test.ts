// The apiServer handler against an HTTPS member-apiserver stand-in: /readyz, Ready node and pod minimums counted over
// paginated lists (stopping once met), the bearer token, the CA, and configuration errors.
import http2 from 'node:http2';
import { expect } from 'chai';
import { runProbe, type ApiServerAction, type ProbeContext } from '../../../packages/probe/src/index.js';
import { testPki, type TestPki } from './certs.js';
import { startMemberApiserver, type StandIn } from './member-apiserver.js';
import { listen } from './servers.js';

const TOKEN = 'test-token-not-a-secret';

describe('apiServer probe against a member apiserver stand-in', function () {
  this.timeout(10_000);
  let pki: TestPki;
  let api: StandIn;

  before(async () => {
    pki = await testPki();
    api = await startMemberApiserver({ key: pki.server.key, cert: pki.server.cert, token: TOKEN, pageCap: 2 });
  });
  after(() => api.close());

  beforeEach(() => {
    api.readyzStatus = 200;
    api.readyzLocation = undefined;
    api.readyzStalls = false;
    api.cutStalledBody = false;
    api.requests.length = 0;
    api.nodes = [
      { name: 'n1', ready: true },
      { name: 'n2', ready: false },
      { name: 'n3', ready: true },
      { name: 'n4', ready: false },
      { name: 'n5', ready: true },
    ];
    api.pods = [
      { name: 'a', namespace: 'default', phase: 'Running', ready: true },
      { name: 'b', namespace: 'kube-system', phase: 'Running', ready: true, hostNetwork: true },
      { name: 'c', namespace: 'default', phase: 'Running', ready: false },
      { name: 'd', namespace: 'default', phase: 'Pending', ready: false },
      { name: 'e', namespace: 'apps', phase: 'Running', ready: true },
      { name: 'f', namespace: 'apps', phase: 'Succeeded', ready: false },
      { name: 'g', namespace: 'apps', phase: 'Running', ready: true },
    ];
  });

  const ctx = (over: Partial<ProbeContext> = {}): ProbeContext => ({
    apiEndpoint: api.url,
    credentials: { token: TOKEN, caBundlePem: pki.caPem },
    ...over,
  });
  const probe = (apiServer: ApiServerAction, c: ProbeContext = ctx()) => runProbe({ apiServer, timeoutSeconds: 2 }, c);

  it('passes on /readyz alone by default', async () => {
    const res = await probe({});
    expect(res.result).to.equal('success');
    expect(api.requests).to.deep.equal(['/readyz']);
  });

  it('fails when /readyz fails, without its body', async () => {
    api.readyzStatus = 500;
    const res = await probe({});
    expect(res).to.include({ result: 'failure', message: 'GET /readyz failed with statuscode: 500' });
    expect(res.message).not.to.contain('etcd');
  });

  it('uses the configured path', async () => {
    await probe({ path: '/livez' });
    expect(api.requests).to.deep.equal(['/livez']);
  });

  it('passes when enough nodes are Ready, counting across pages', async () => {
    const res = await probe({ minReadyNodes: 3 });
    expect(res.result).to.equal('success');
    expect(res.message).to.contain('at least 3 Ready nodes');
    expect(api.requests).to.deep.equal([
      '/readyz',
      '/api/v1/nodes?limit=500',
      '/api/v1/nodes?limit=500&continue=2',
      '/api/v1/nodes?limit=500&continue=4',
    ]);
  });

  it('stops listing as soon as the minimum is met', async () => {
    await probe({ minReadyNodes: 1 });
    expect(api.requests).to.deep.equal(['/readyz', '/api/v1/nodes?limit=500']);
  });

  it('fails when too few nodes are Ready, although /readyz is fine', async () => {
    const res = await probe({ minReadyNodes: 4 });
    expect(res).to.include({ result: 'failure', message: '3 Ready nodes, fewer than the 4 required (minReadyNodes)' });
  });

  it('fails when every node is NotReady', async () => {
    for (const n of api.nodes) n.ready = false;
    const res = await probe({ minReadyNodes: 1 });
    expect(res.result).to.equal('failure');
    expect(res.message).to.match(/^0 Ready nodes/);
  });

  it('counts only Running, Ready, non-hostNetwork pods in all namespaces', async () => {
    expect((await probe({ minReadyPods: 3 })).result).to.equal('success');
    const res = await probe({ minReadyPods: 4 });
    expect(res).to.include({
      result: 'failure',
      message: '3 Ready non-hostNetwork pods, fewer than the 4 required (minReadyPods)',
    });
    expect(api.requests.filter((r) => r.startsWith('/api/v1/pods'))[0]).to.equal(
      '/api/v1/pods?limit=500&fieldSelector=status.phase%3DRunning',
    );
  });

  it('checks nodes and pods together', async () => {
    expect((await probe({ minReadyNodes: 2, minReadyPods: 2 })).result).to.equal('success');
  });

  it('is a configuration error, never a failure, when the member refuses our token: our credentials broke', async () => {
    const res = await probe({ minReadyNodes: 1 }, ctx({ credentials: { token: 'wrong', caBundlePem: pki.caPem } }));
    expect(res).to.include({
      result: 'error',
      code: 'CredentialsRejected',
      message:
        "listing nodes: statuscode: 401: the member refused the probe's credentials (token or client certificate)",
      detail: "statuscode: 401: the member refused the probe's credentials (token or client certificate)",
    });
    // Not the kubelet's errored probe: nothing to retry, the answer was read.
    expect(res.attempts).to.equal(undefined);
  });

  for (const status of [401, 403]) {
    it(`errors on a ${status} from the health path too`, async () => {
      api.readyzStatus = status;
      const res = await probe({});
      expect(res).to.include({ result: 'error', code: 'CredentialsRejected' });
      expect(res.message).to.match(new RegExp(`^GET /readyz: statuscode: ${status}: the member refused`));
    });
  }

  it('fails (not errored) when the health body stalls past the timeout: the member did not answer in time', async () => {
    api.readyzStalls = true;
    const res = await runProbe({ apiServer: {}, timeoutSeconds: 1 }, ctx());
    expect(res).to.include({
      result: 'failure',
      message: `Get "${api.url}/readyz": context deadline exceeded (Client.Timeout or context cancellation while reading body)`,
    });
  });

  it("errors (the kubelet's rule: a body that cannot be read) when the health body is cut short", async () => {
    api.readyzStalls = true;
    api.cutStalledBody = true;
    const res = await probe({});
    expect(res).to.include({
      result: 'error',
      code: 'ProbeErrored',
      message: `Get "${api.url}/readyz": unexpected EOF`,
    });
  });

  it('follows a same-host redirect as the httpGet handler does, and not one to another host spelling', async () => {
    api.readyzLocation = '/healthz';
    expect((await probe({})).result).to.equal('success');
    expect(api.requests).to.deep.equal(['/readyz', '/healthz']);
    api.requests.length = 0;
    api.readyzLocation = `https://localhost:${api.port}/healthz`;
    const res = await probe({});
    expect(res).to.include({ result: 'failure', message: 'GET /readyz failed with statuscode: 302' });
    expect(api.requests).to.deep.equal(['/readyz']);
  });

  it('never follows a redirect from https to http: the token would go in clear', async () => {
    api.readyzLocation = `http://127.0.0.1:${api.port}/healthz`;
    const res = await probe({});
    expect(res).to.include({ result: 'failure', message: 'GET /readyz failed with statuscode: 302' });
    expect(api.requests).to.deep.equal(['/readyz']);
  });

  it('speaks h2 to a member that offers only h2, as client-go does, lists included', async () => {
    const h2 = http2.createSecureServer({ key: pki.server.key, cert: pki.server.cert, allowHTTP1: false });
    const seen: string[] = [];
    const node = (name: string): unknown => ({
      metadata: { name },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    h2.on('stream', (stream, headers) => {
      const path = headers[':path'] ?? '';
      seen.push(`${path} ${headers.authorization === `Bearer ${TOKEN}` ? 'token' : 'no token'}`);
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      if (path.startsWith('/api/v1/nodes'))
        stream.end(JSON.stringify({ kind: 'NodeList', metadata: {}, items: [node('a'), node('b'), node('c')] }));
      else stream.end('ok');
    });
    const port = await listen(h2);
    try {
      const res = await probe({ minReadyNodes: 3 }, ctx({ apiEndpoint: `https://127.0.0.1:${port}` }));
      expect(res).to.include({ result: 'success' });
      expect(seen).to.deep.equal(['/readyz token', '/api/v1/nodes?limit=500 token']);
    } finally {
      await new Promise<void>((resolve) => h2.close(() => resolve()));
    }
  });

  it('fails when the apiserver certificate is not from the given CA', async () => {
    const res = await probe({}, ctx({ credentials: { token: TOKEN, caBundlePem: pki.otherCaPem } }));
    expect(res.result).to.equal('failure');
    expect(res.message).to.contain('certificate signed by unknown authority');
  });

  it("honours the Cluster's insecureSkipTLSVerification", async () => {
    const res = await probe({}, ctx({ credentials: { token: TOKEN }, insecureSkipTLSVerify: true }));
    expect(res.result).to.equal('success');
  });

  it('is a configuration error without an apiEndpoint, or with a CA that is not PEM', async () => {
    expect((await probe({}, { credentials: { token: TOKEN } })).result).to.equal('error');
    const bad = await probe({}, ctx({ credentials: { token: TOKEN, caBundlePem: 'not pem' } }));
    expect(bad.result).to.equal('error');
  });

  it('never puts the token in a message', async () => {
    const res = await probe({ minReadyNodes: 100 });
    expect(JSON.stringify(res)).not.to.contain(TOKEN);
  });
});
