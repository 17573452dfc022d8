// The engine loads @grpc/grpc-js (13 MiB of RSS) only when a gRPC probe runs (issue 50: bench/probe's RSS peak): a
// process that probes over HTTP or TCP never loads it, and the first gRPC probe still gets the kubelet's answer.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';

const SCRIPT = `
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { runProbe } from './packages/probe/src/index.ts';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('@grpc/grpc-js'));
const out = { atImport: loaded() };
const http = await runProbe({ httpGet: { host: '127.0.0.1', port: 1, path: '/' }, timeoutSeconds: 1 });
out.afterHttp = loaded();
out.httpResult = http.result;
// A port nothing listens on: found by binding one and closing it.
const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const grpc = await runProbe({ grpc: { port }, timeoutSeconds: 1 }, { apiEndpoint: 'https://127.0.0.1:6443' });
out.afterGrpc = loaded();
out.grpc = grpc;
process.stdout.write(JSON.stringify(out));
`;

describe('gRPC handler loaded on first use', () => {
  it('is not loaded by importing the engine or by HTTP probes, and answers the first gRPC probe', function () {
    this.timeout(60_000);
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
        encoding: 'utf8',
        timeout: 50_000,
      }),
    ) as {
      atImport: boolean;
      afterHttp: boolean;
      httpResult: string;
      afterGrpc: boolean;
      grpc: { result: string; message: string };
    };
    expect(out.atImport, 'loaded by importing the engine').to.equal(false);
    expect(out.httpResult).to.equal('failure');
    expect(out.afterHttp, 'loaded by an HTTP probe').to.equal(false);
    expect(out.afterGrpc, 'loaded for the gRPC probe').to.equal(true);
    expect(out.grpc.result).to.equal('failure');
    expect(out.grpc.message).to.match(/connection refused|failed to connect/i);
  });
});
