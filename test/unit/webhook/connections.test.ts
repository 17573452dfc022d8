// The connection sweep's two bounds on a clock of the test's own: an answer left unflushed (the client not reading)
// and a connection with no request in progress (blank lines or silence). The sockets are stand-ins with the two
// properties the sweep reads; the real thing is in test/integration/webhook/hostile-idle.test.ts.
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ConnectionSweep } from '../../../src/webhook/connections.js';

class FakeSocket extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

const answer = (finished: boolean): ServerResponse =>
  ({ writableFinished: finished, destroyed: false }) as unknown as ServerResponse;

describe('connection sweep', () => {
  let now = 0;
  let sweep: ConnectionSweep;
  const add = (): FakeSocket => {
    const socket = new FakeSocket();
    sweep.add(socket as unknown as Socket);
    return socket;
  };
  const at = (ms: number): void => {
    now = ms;
    sweep.sweep();
  };

  beforeEach(() => {
    now = 0;
    sweep = new ConnectionSweep({ stalledWriteMs: 1_000, idleMs: 5_000, sweepMs: 60_000 }, () => now);
  });
  afterEach(() => sweep.stop());

  it('closes a connection whose unflushed answer stays for stalledWriteMs after a sweep first saw it', () => {
    const socket = add();
    sweep.request(socket as unknown as Socket, answer(false));
    socket.writableLength = 4096;
    at(100);
    at(1_099);
    expect(socket.destroyed).to.equal(false);
    at(1_100);
    expect(socket.destroyed).to.equal(true);
    expect(sweep.size).to.equal(0);
  });

  it('starts the stall over when the answer is flushed in between', () => {
    const socket = add();
    sweep.request(socket as unknown as Socket, answer(false));
    socket.writableLength = 10;
    at(100);
    socket.writableLength = 0;
    at(900);
    socket.writableLength = 10;
    at(1_200);
    at(2_100);
    expect(socket.destroyed).to.equal(false);
    at(2_200);
    expect(socket.destroyed).to.equal(true);
  });

  it('never closes a connection for idleness while a request is in progress', () => {
    const socket = add();
    sweep.request(socket as unknown as Socket, answer(false));
    for (let t = 0; t <= 60_000; t += 1_000) at(t);
    expect(socket.destroyed).to.equal(false);
  });

  it('closes a connection idleMs after a sweep saw its last answer finished, or after it opened', () => {
    const fresh = add();
    const used = add();
    at(1_000);
    const res = answer(false);
    sweep.request(used as unknown as Socket, res);
    at(2_000);
    (res as { writableFinished: boolean }).writableFinished = true;
    at(3_000);
    at(4_999);
    expect(fresh.destroyed).to.equal(false);
    at(5_000);
    expect(fresh.destroyed, 'no request within idleMs of opening').to.equal(true);
    at(7_999);
    expect(used.destroyed).to.equal(false);
    at(8_000);
    expect(used.destroyed, 'no request within idleMs of the last answer').to.equal(true);
  });

  it('keeps a busy connection whose requests each start and end between two sweeps', () => {
    const socket = add();
    for (let t = 1_000; t <= 60_000; t += 1_000) {
      sweep.request(socket as unknown as Socket, answer(true)); // answered before the next sweep
      at(t);
    }
    expect(socket.destroyed, 'closed although a request came every second').to.equal(false);
    at(60_000 + 4_999);
    expect(socket.destroyed).to.equal(false);
    at(60_000 + 5_000);
    expect(socket.destroyed, 'idle since the sweep after its last request').to.equal(true);
  });

  it('counts the connections open, and forgets one that closes by itself', () => {
    const a = add();
    add();
    expect(sweep.size).to.equal(2);
    a.emit('close');
    expect(sweep.size).to.equal(1);
  });
});
