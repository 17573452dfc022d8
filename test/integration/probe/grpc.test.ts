// The grpc handler against real grpc-js servers: every serving state of grpc.health.v1, a server without the health
// service, a slow server and a closed port, with the kubelet's messages.
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import {
  healthServiceDefinition,
  runProbe,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '../../../packages/probe/src/index.js';
import { closedPort, listen } from './servers.js';

const STATUS_BY_SERVICE: Record<string, number> = {
  '': 1, // SERVING
  'svc.serving': 1,
  'svc.not-serving': 2,
  'svc.unknown': 0,
  'svc.service-unknown': 3,
};

function bind(server: grpc.Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve(port),
    ),
  );
}

function shutdown(server: grpc.Server): Promise<void> {
  return new Promise((resolve) => server.tryShutdown(() => resolve()));
}

describe('grpc probe', function () {
  this.timeout(30_000);
  let health: grpc.Server;
  let bare: grpc.Server;
  let healthPort: number;
  let barePort: number;
  let lastService = '';

  before(async () => {
    health = new grpc.Server();
    health.addService(healthServiceDefinition, {
      check: (
        call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
        cb: grpc.sendUnaryData<HealthCheckResponse>,
      ) => {
        const service = call.request.service;
        lastService = service;
        if (service === 'svc.slow') {
          setTimeout(() => cb(null, { status: 1 }), 3000).unref();
          return;
        }
        const status = STATUS_BY_SERVICE[service];
        if (status === undefined) cb({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
        else cb(null, { status });
      },
    });
    healthPort = await bind(health);
    bare = new grpc.Server();
    barePort = await bind(bare);
  });

  after(async () => {
    health.forceShutdown();
    bare.forceShutdown();
    await Promise.all([shutdown(health), shutdown(bare)]);
  });

  it('passes when the server answers SERVING (service "" by default)', async () => {
    const res = await runProbe({ grpc: { host: '127.0.0.1', port: healthPort } });
    expect(res.result).to.equal('success');
    expect(lastService).to.equal('');
  });

  it('sends the configured service name', async () => {
    expect((await runProbe({ grpc: { host: '127.0.0.1', port: healthPort, service: 'svc.serving' } })).result).to.equal(
      'success',
    );
    expect(lastService).to.equal('svc.serving');
  });

  for (const [service, name] of [
    ['svc.not-serving', 'NOT_SERVING'],
    ['svc.unknown', 'UNKNOWN'],
    ['svc.service-unknown', 'SERVICE_UNKNOWN'],
  ] as const) {
    it(`fails when the server answers ${name}`, async () => {
      const res = await runProbe({ grpc: { host: '127.0.0.1', port: healthPort, service } });
      expect(res).to.include({ result: 'failure', message: `service unhealthy (responded with "${name}")` });
    });
  }

  it('fails with the rpc error when the service is not known to the health server', async () => {
    const res = await runProbe({ grpc: { host: '127.0.0.1', port: healthPort, service: 'nope' } });
    expect(res).to.include({
      result: 'failure',
      message: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service',
    });
  });

  it('fails with the kubelet message when the server has no health service', async () => {
    const res = await runProbe({ grpc: { host: '127.0.0.1', port: barePort } });
    expect(res.result).to.equal('failure');
    expect(res.message).to.match(
      /^error: this server does not implement the grpc health protocol \(grpc\.health\.v1\.Health\): /,
    );
  });

  it('fails when the health rpc does not complete within the timeout', async () => {
    const res = await runProbe({
      grpc: { host: '127.0.0.1', port: healthPort, service: 'svc.slow' },
      timeoutSeconds: 1,
    });
    expect(res).to.include({ result: 'failure', message: 'timeout: health rpc did not complete within 1s' });
    // The timeout ended it (the message says so): never before it; the upper bound only catches a hang (10x).
    expect(res.durationMs).to.be.within(900, 10_000);
  });

  it('fails when nothing listens, after the timeout, as the kubelet', async () => {
    const free = await closedPort();
    const res = await runProbe({ grpc: { host: '127.0.0.1', port: free }, timeoutSeconds: 1 });
    expect(res).to.include({
      result: 'failure',
      message: `timeout: failed to connect service "127.0.0.1:${free}" within 1s: context deadline exceeded`,
    });
  });

  it('fails on a name that does not resolve', async () => {
    const res = await runProbe({ grpc: { host: 'grpc.invalid', port: 50051 } });
    expect(res.result).to.equal('failure');
    expect(res.message).to.contain('lookup grpc.invalid: no such host');
  });

  describe('an HTTP/2 server on the port that is not gRPC, worded as grpc-go words it', () => {
    let h2c: http2.Http2Server;
    let h2cPort: number;
    let answer = 404;
    before(async () => {
      h2c = http2.createServer();
      h2c.on('stream', (stream) => {
        stream.respond({ ':status': answer, 'content-type': 'text/html' });
        stream.end('<html>not grpc</html>');
      });
      h2cPort = await listen(h2c);
    });
    after(() => new Promise<void>((resolve) => h2c.close(() => resolve())));

    it('a 404 is Unimplemented, with the HTTP status and the content-type in the message', async () => {
      answer = 404;
      const res = await runProbe({ grpc: { host: '127.0.0.1', port: h2cPort } });
      expect(res).to.include({
        result: 'failure',
        message:
          'error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unexpected HTTP status code received from server: 404 (Not Found); transport: received unexpected content-type "text/html"',
      });
    });

    it('a 200 text/html is Unknown, not a message read from the HTML', async () => {
      answer = 200;
      const res = await runProbe({ grpc: { host: '127.0.0.1', port: h2cPort } });
      expect(res).to.include({
        result: 'failure',
        message:
          'error: health rpc probe failed: rpc error: code = Unknown desc = transport: received unexpected content-type "text/html"',
      });
    });
  });
});
