// The bench's probe targets: plain HTTP servers on 127.0.0.1 (several ports, any path answers 200), run in their own
// process so that neither prober's CPU figure includes serving. Prints the ports as one JSON line, exits on stdin EOF.
import http from 'node:http';

const count = Number(process.argv[2] ?? '16');
const ports: number[] = [];
const servers: http.Server[] = [];
for (let i = 0; i < count; i++) {
  const s = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  s.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', 511, resolve));
  const addr = s.address();
  if (addr !== null && typeof addr !== 'string') ports.push(addr.port);
  servers.push(s);
}
process.stdout.write(`${JSON.stringify({ ports })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  for (const s of servers) s.close();
  process.exit(0);
});
