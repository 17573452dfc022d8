// The hand-encoded grpc.health.v1 messages: round trips, proto3 defaults, and skipping of unknown fields.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  decodeHealthCheckRequest,
  decodeHealthCheckResponse,
  encodeHealthCheckRequest,
  encodeHealthCheckResponse,
} from '../../../packages/probe/src/health-proto.js';

describe('grpc health messages', () => {
  it('round-trips any service name', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (service) => {
        expect(decodeHealthCheckRequest(encodeHealthCheckRequest({ service }))).to.deep.equal({ service });
      }),
    );
  });

  it('round-trips any status number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (status) => {
        expect(decodeHealthCheckResponse(encodeHealthCheckResponse({ status }))).to.deep.equal({ status });
      }),
    );
  });

  it('encodes as protoc does', () => {
    expect(encodeHealthCheckRequest({ service: 'ab' })).to.deep.equal(Buffer.from([0x0a, 0x02, 0x61, 0x62]));
    expect(encodeHealthCheckResponse({ status: 1 })).to.deep.equal(Buffer.from([0x08, 0x01]));
    expect(encodeHealthCheckResponse({ status: 0 }).length).to.equal(0);
  });

  it('skips unknown fields of every wire type', () => {
    const bytes = Buffer.from([
      0x10, 0x05, 0x1a, 0x01, 0x7a, 0x21, 1, 2, 3, 4, 5, 6, 7, 8, 0x2d, 1, 2, 3, 4, 0x08, 0x02,
    ]);
    expect(decodeHealthCheckResponse(bytes)).to.deep.equal({ status: 2 });
  });

  it('throws on truncated input', () => {
    expect(() => decodeHealthCheckResponse(Buffer.from([0x0a, 0x05, 0x61]))).to.throw(/truncated/);
  });
});
