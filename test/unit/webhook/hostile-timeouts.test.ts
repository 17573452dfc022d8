// The webhook's default connection timeouts, against the numbers of the client that calls it (kube-apiserver's
// webhook client: Go net/http through client-go) and of the server it stands beside (kube-apiserver's own serving).
// The behaviour of each timeout on a real socket is tested in test/integration/webhook/hostile-idle.test.ts.
import { expect } from 'chai';
import { DEFAULT_CONNECTION_TIMEOUTS as T } from '../../../src/webhook/index.js';

// Go's http.DefaultTransport, which client-go's SetOldTransportDefaults copies into the apiserver's webhook client.
const GO_IDLE_CONN_TIMEOUT_MS = 90_000;
const GO_TLS_HANDSHAKE_TIMEOUT_MS = 10_000;
// kube-apiserver's own http.Server (k8s.io/apiserver pkg/server/secure_serving.go): ReadHeaderTimeout 32 s.
const APISERVER_READ_HEADER_TIMEOUT_MS = 32_000;
// A webhook configuration's timeoutSeconds may be at most 30.
const MAX_WEBHOOK_TIMEOUT_MS = 30_000;

describe('default connection timeouts', () => {
  it('keeps an idle keep-alive connection longer than the apiserver keeps it, so the client always closes first', () => {
    expect(T.keepAliveMs).to.be.above(GO_IDLE_CONN_TIMEOUT_MS);
  });

  it('bounds an idle keep-alive connection all the same (a few minutes at most)', () => {
    expect(T.keepAliveMs).to.be.at.most(5 * 60_000);
  });

  it('gives a TLS handshake at least as long as the client waits for it', () => {
    expect(T.handshakeMs).to.be.at.least(GO_TLS_HANDSHAKE_TIMEOUT_MS);
  });

  it('closes a connection without complete headers no later than kube-apiserver would', () => {
    expect(T.headersMs).to.be.at.most(APISERVER_READ_HEADER_TIMEOUT_MS);
    expect(T.handshakeMs).to.be.at.most(T.headersMs);
  });

  it('lets a whole request arrive within the longest webhook timeout, and headers first (node requires it)', () => {
    expect(T.requestMs).to.be.at.least(MAX_WEBHOOK_TIMEOUT_MS);
    expect(T.headersMs).to.be.at.most(T.requestMs);
  });

  it('orders the bounds: handshake, headers, request, keep-alive', () => {
    expect([T.handshakeMs, T.headersMs, T.requestMs, T.keepAliveMs]).to.deep.equal(
      [T.handshakeMs, T.headersMs, T.requestMs, T.keepAliveMs].sort((a, b) => a - b),
    );
  });
});
