// The project's pure bottom layer: facts and helpers every other layer may import (schema, probe, webhook,
// reconciler, CLI). It imports nothing of theirs. See docs/architecture.md.
export { messageOf, isRecord } from './errors.js';
