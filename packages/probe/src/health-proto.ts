// grpc.health.v1.Health/Check, hand-encoded: the two tiny messages of health.proto, so the probe needs no .proto file
// at run time and no code generator. Depends only on @grpc/grpc-js's types.
//
//   syntax = "proto3"; package grpc.health.v1;
//   message HealthCheckRequest { string service = 1; }
//   message HealthCheckResponse { enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
//                                 ServingStatus status = 1; }
//   service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
import type { ServiceDefinition } from '@grpc/grpc-js';

export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

export const SERVING_STATUS_NAMES = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
export type ServingStatusName = (typeof SERVING_STATUS_NAMES)[number];

export interface HealthCheckRequest {
  service: string;
}

export interface HealthCheckResponse {
  /** The enum's number; unknown numbers are kept, as proto3 does. */
  status: number;
}

function encodeVarint(value: number, out: number[]): void {
  let v = value >>> 0;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

function readVarint(buf: Uint8Array, pos: { at: number }): number {
  let result = 0;
  let shift = 0;
  for (;;) {
    if (pos.at >= buf.length) throw new Error('truncated varint');
    const byte = buf[pos.at++] ?? 0;
    if (shift < 32) result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7;
    if (shift > 63) throw new Error('varint too long');
  }
}

/** Calls onField(number, wireType, value) for each field; varints as numbers, length-delimited as bytes. */
function readFields(buf: Uint8Array, onField: (field: number, value: number | Uint8Array) => void): void {
  const pos = { at: 0 };
  while (pos.at < buf.length) {
    const key = readVarint(buf, pos);
    const field = Math.floor(key / 8);
    switch (key & 7) {
      case 0:
        onField(field, readVarint(buf, pos));
        break;
      case 1:
        pos.at += 8;
        break;
      case 2: {
        const len = readVarint(buf, pos);
        if (pos.at + len > buf.length) throw new Error('truncated field');
        onField(field, buf.subarray(pos.at, pos.at + len));
        pos.at += len;
        break;
      }
      case 5:
        pos.at += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${key & 7}`);
    }
    if (pos.at > buf.length) throw new Error('truncated field');
  }
}

export function encodeHealthCheckRequest(req: HealthCheckRequest): Buffer {
  if (req.service === '') return Buffer.alloc(0);
  const bytes = Buffer.from(req.service, 'utf8');
  const head: number[] = [0x0a];
  encodeVarint(bytes.length, head);
  return Buffer.concat([Buffer.from(head), bytes]);
}

export function decodeHealthCheckRequest(buf: Uint8Array): HealthCheckRequest {
  let service = '';
  readFields(buf, (field, value) => {
    if (field === 1 && typeof value !== 'number') service = Buffer.from(value).toString('utf8');
  });
  return { service };
}

export function encodeHealthCheckResponse(res: HealthCheckResponse): Buffer {
  if (res.status === 0) return Buffer.alloc(0);
  const out: number[] = [0x08];
  encodeVarint(res.status, out);
  return Buffer.from(out);
}

export function decodeHealthCheckResponse(buf: Uint8Array): HealthCheckResponse {
  let status = 0;
  readFields(buf, (field, value) => {
    if (field === 1 && typeof value === 'number') status = value;
  });
  return { status };
}

export function servingStatusName(status: number): string {
  return SERVING_STATUS_NAMES[status] ?? String(status);
}

/** The service definition, for a client (the probe) or a server (tests, stand-ins). */
export const healthServiceDefinition: ServiceDefinition = {
  check: {
    path: HEALTH_CHECK_PATH,
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: HealthCheckRequest) => encodeHealthCheckRequest(value),
    requestDeserialize: (bytes: Buffer) => decodeHealthCheckRequest(bytes),
    responseSerialize: (value: HealthCheckResponse) => encodeHealthCheckResponse(value),
    responseDeserialize: (bytes: Buffer) => decodeHealthCheckResponse(bytes),
  },
};
