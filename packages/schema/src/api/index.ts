// The project's pure bottom layer: facts and helpers every other layer may import (schema, probe, webhook,
// reconciler, CLI). It imports nothing of theirs. See docs/architecture.md. Each fact has one home here: the names
// (constants.ts), the probe's types and its handlers and defaults (generated from schemas/ by `npm run generate`),
// and the error helpers (errors.ts).
export { messageOf, isRecord } from './errors.js';
export { definedFields } from './defined.js';
export { pemCertificateBlocks } from './pem.js';
export { clip, trimTrailingSlashes } from './text.js';
export { RealClock, backgroundClock, type Clock, type RealClockOptions, type TimerHandle } from './clock.js';
export * from './constants.js';
export {
  HANDLERS,
  HANDLER_DEFAULTS,
  TIMING_DEFAULTS,
  TIMING_FIELDS,
  TIMING_MINIMUMS,
  type HandlerName,
  type TimingField,
} from './generated/probe-facts.js';
export type * from './generated/types.js';
