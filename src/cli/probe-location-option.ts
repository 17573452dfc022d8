// The `--probe-location` flag, declared once for every command that takes it (serve, validate, migrate, manifests,
// dev up): the values are the schema library's PROBE_LOCATIONS, the default is `field`. Where a server is at hand
// (`migrate --in-cluster`) the flag also takes `auto`, its default there: resolved here, from what discovery says the
// server can store (src/deploy/probe-storage.ts); the schema library only ever sees field or annotation.
import { Option } from 'commander';
import { PROBE_LOCATIONS, type ProbeLocation } from '@karmada-cluster-probe/schema';
import type { ProbeStorage } from '../deploy/probe-storage.js';

export const AUTO = 'auto';
export type ProbeLocationChoice = ProbeLocation | typeof AUTO;

/** `--probe-location <where>`, with `description` saying what this command does with it. */
export function probeLocationOption(description: string): Option {
  return new Option('--probe-location <where>', description).choices([...PROBE_LOCATIONS]).default('field');
}

/**
 * `--probe-location <where>` with `auto` among the choices and no default: the command resolves an absent flag
 * (auto where it talks to a server, field where it has only files).
 */
export function probeLocationOptionWithAuto(description: string): Option {
  return new Option('--probe-location <where>', description).choices([...PROBE_LOCATIONS, AUTO]);
}

export type Resolved = { location: ProbeLocation; note?: string } | { refusal: string };

/**
 * The location to use on a server that can store what `storage` says. `auto` takes the field where it is stored and
 * the annotation otherwise (every apiserver stores annotations); `field` on a server that drops it is refused.
 */
export function resolveProbeLocation(choice: ProbeLocationChoice, storage: ProbeStorage): Resolved {
  if (choice === 'annotation') return { location: 'annotation' };
  if (choice === 'field') {
    if (storage.field === false)
      return {
        refusal:
          `--probe-location field refused: ${storage.reason}. Moving the probe there would delete it: pass ` +
          '--probe-location annotation, or leave --probe-location out (auto takes the annotation here). Nothing was ' +
          'written',
      };
    return storage.field === true
      ? { location: 'field' }
      : { location: 'field', note: `${storage.reason}; the dry run of every patch checks what is stored` };
  }
  if (storage.field === true) return { location: 'field', note: `--probe-location auto: field: ${storage.reason}` };
  return {
    location: 'annotation',
    note:
      `--probe-location auto: annotation: ${storage.reason}` +
      (storage.field === undefined ? '; the annotation is stored by every apiserver' : ''),
  };
}
