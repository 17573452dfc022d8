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

/** One request as a raw server read it: the request line and the header lines, as sent (names as written). */
export interface RawRequest {
  line: string;
  target: string;
  headers: [string, string][];
}

/**
 * A server on raw sockets, for answers no HTTP library would write (HTTP/1.2, bare LF, resets): reads each request's
 * head (latin1, byte for byte), records it, and hands the socket to `respond` with the request and its index.
 */
export async function rawServer(
  respond: (socket: net.Socket, req: RawRequest, index: number) => void,
): Promise<{ server: net.Server; port: number; requests: RawRequest[] }> {
  const requests: RawRequest[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.removeListener('data', onData);
      const [line = '', ...rest] = head.slice(0, end).split('\r\n');
      const req: RawRequest = {
        line,
        target: line.split(' ').slice(1, -1).join(' '),
        headers: rest.map((h) => {
          const colon = h.indexOf(':');
          return [h.slice(0, colon), h.slice(colon + 1).trim()];
        }),
      };
      requests.push(req);
      respond(socket, req, requests.length - 1);
    };
    socket.on('data', onData);
  });
  const port = await listen(server);
  return { server, port, requests };
}

/** The part of the body resettingServer sends before its reset. */
export const BODY_SENT = 'partial-bo';

/** Answers every request with 200, a Content-Length of 100 and 10 bytes of it, then resets the connection (RST). */
export function resettingServer(): { server: net.Server; requests: () => number } {
  let requests = 0;
  const server = net.createServer((socket) => {
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      head = '';
      requests++;
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n${BODY_SENT}`, () =>
        // After the bytes are out: the client has read the headers and part of the body when the reset comes.
        setTimeout(() => socket.resetAndDestroy(), 20),
      );
    });
    socket.on('error', () => undefined);
  });
  return { server, requests: () => requests };
}
