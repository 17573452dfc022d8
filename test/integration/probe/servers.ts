// Small helpers to start and close real servers on 127.0.0.1 for the probe's integration tests.
import type { Server } from 'node:net';
import net from 'node:net';

export function listen<S extends Server>(server: S): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      if (addr === null || typeof addr === 'string') reject(new Error('no port'));
      else resolve(addr.port);
    });
  });
}

/** Closes a server and every connection it still holds (stalled tests leave some open). */
export function close(server: Server & { closeAllConnections?: () => void }): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** A port with nothing listening: bound once, then released. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  const port = await listen(s);
  await close(s);
  return port;
}
