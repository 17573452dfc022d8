// Runs the `cluster-probe` CLI from source (what bin/cluster-probe.js runs from dist/), for tests that spawn it.
import { run } from '../../../src/cli/main.js';

process.exitCode = await run(process.argv);
