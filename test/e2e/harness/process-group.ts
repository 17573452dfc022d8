// A child process in its own process group; the code lives in src/dev/process-group.ts (shared with `dev up`).
export { ProcessGroup } from '../../../src/dev/process-group.js';
