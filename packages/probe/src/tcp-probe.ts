// The tcpSocket handler: connect, then close, as the kubelet's pkg/probe/tcp; the dialled address passes the guard.
// Depends only on node:net, the address guard and the deadline's afterPendingIo.
import net from 'node:net';
import { configError, failure, success, urlHost, type HandlerEnv, type HandlerResult } from './handler.js';
import { afterPendingIo } from './deadline.js';
import { describeNetError, isAddressDenied } from './net-error.js';

export interface ResolvedTcpSocket {
  host: string;
  port: number;
}

export function tcpProbe(action: ResolvedTcpSocket, env: HandlerEnv): Promise<HandlerResult> {
  const addr = `${urlHost(action.host)}:${action.port}`;
  const bare = action.host.replace(/^\[|\]$/g, '');
  let dial: string;
  try {
    // An address in any spelling (0x7f.1, 2130706433) is judged, and dialled, as the address it spells.
    dial = env.guard.checkLiteral(bare) ?? bare;
  } catch (e) {
    return Promise.resolve(configError(`tcpSocket: ${describeNetError(e, addr, bare)}`));
  }
  return new Promise<HandlerResult>((resolve) => {
    let done = false;
    const socket = net.connect({ host: dial, port: action.port, lookup: env.guard.lookup });
    const finish = (r: HandlerResult): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      env.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(r);
    };
    // Connected before the deadline but not yet read (this process busy past it) is connected: see afterPendingIo.
    const timer = setTimeout(() => afterPendingIo(finish, failure(`dial tcp ${addr}: i/o timeout`)), env.timeoutMs);
    const onAbort = (): void => finish(failure(`dial tcp ${addr}: probe stopped`));
    if (env.signal?.aborted === true) onAbort();
    else env.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => {
      const remote =
        socket.remoteAddress !== undefined ? `${urlHost(socket.remoteAddress)}:${socket.remotePort}` : addr;
      finish(success(`TCP probe succeeded: connected to ${remote}`));
    });
    socket.once('error', (err) => {
      // A reset, or a read or write error, means the connection was made (a listener that accepts and resets at
      // once; libuv reports that reset on connect, as ECONNRESET, where a refusal is ECONNREFUSED): the kubelet's
      // probe only dials and closes, so it passes.
      const { syscall, code } = err as NodeJS.ErrnoException;
      if (code === 'ECONNRESET' || syscall === 'read' || syscall === 'write')
        finish(success(`TCP probe succeeded: connected to ${addr}`));
      else if (isAddressDenied(err)) finish(configError(`tcpSocket: ${describeNetError(err, addr, bare)}`));
      else finish(failure(describeNetError(err, addr, bare)));
    });
  });
}
