// The `--probe-location` flag, declared once for every command that takes it (serve, validate, migrate, manifests,
// dev up): the values are the schema library's PROBE_LOCATIONS, the default is `field`.
import { Option } from 'commander';
import { PROBE_LOCATIONS } from '../schema/index.js';

/** `--probe-location <where>`, with `description` saying what this command does with it. */
export function probeLocationOption(description: string): Option {
  return new Option('--probe-location <where>', description).choices([...PROBE_LOCATIONS]).default('field');
}
