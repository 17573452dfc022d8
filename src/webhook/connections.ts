// The webhook's open connections, and the two bounds node's http server leaves to its user: a connection whose
// client stops reading the answers (node stops reading the socket and no request is in progress, so neither
// headersTimeout nor requestTimeout runs, and the keep-alive timer is only armed once an answer is flushed), and a
// connection that sends blank lines between requests (llhttp skips a CRLF before a request line, so no request
// starts, while every read refreshes the keep-alive timer). One interval timer sweeps them all; a request costs one
// property write. Pure node:net; knows nothing of admission.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionBounds {
  /** How long an answer may stay unflushed in a connection (the client not reading) before it is closed. */
  stalledWriteMs: number;
  /** How long a connection may go without a request in progress, blank lines or not, before it is closed. */
  idleMs: number;
  /** How often the connections are looked at (the bounds are met within one period late). */
  sweepMs: number;
}

interface Connection {
  /** The latest request's answer (undefined before the first request). */
  res: ServerResponse | undefined;
  /** Since when no request has been in progress (NOT_SEEN while one is). */
  idleSince: number;
  /** When a sweep first saw unflushed bytes (NOT_SEEN: none). */
  stalledSince: number;
}

const NOT_SEEN = -1;

export class ConnectionSweep {
  private readonly open = new Map<Socket, Connection>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bounds: ConnectionBounds,
    private readonly now: () => number = Date.now,
  ) {}

  /** Connections open now. */
  get size(): number {
    return this.open.size;
  }

  /** A new connection (after its handshake); its idle time counts from now. */
  add(socket: Socket): void {
    this.open.set(socket, { res: undefined, idleSince: this.now(), stalledSince: NOT_SEEN });
    socket.once('close', () => {
      this.open.delete(socket);
      if (this.open.size === 0) this.stopTimer();
    });
    this.timer ??= setInterval(() => this.sweep(), this.bounds.sweepMs).unref();
  }

  /** A request arrived on `socket` (its headers are complete); `res` is its answer. */
  request(socket: Socket, res: ServerResponse): void {
    const connection = this.open.get(socket);
    if (connection === undefined) return;
    connection.res = res;
    // Most requests start and end between two sweeps: the idle time counts from the first sweep after this one.
    connection.idleSince = NOT_SEEN;
  }

  /** Closes the connections past a bound; runs on the timer, and by hand in tests. */
  sweep(): void {
    const now = this.now();
    for (const [socket, connection] of this.open) {
      if (socket.writableLength > 0) {
        if (connection.stalledSince === NOT_SEEN) connection.stalledSince = now;
        else if (now - connection.stalledSince >= this.bounds.stalledWriteMs) {
          socket.destroy();
          continue;
        }
      } else connection.stalledSince = NOT_SEEN;
      const res = connection.res;
      if (res !== undefined && !res.writableFinished && !res.destroyed) {
        connection.idleSince = NOT_SEEN; // a request in progress: node's headersTimeout and requestTimeout bound it
        continue;
      }
      if (connection.idleSince === NOT_SEEN) connection.idleSince = now;
      else if (now - connection.idleSince >= this.bounds.idleMs) socket.destroy();
    }
  }

  /** Stops the timer (the server is closing; connections still open close on their own bounds or by the server). */
  stop(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
