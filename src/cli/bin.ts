// Runs the CLI from source (`npx tsx src/cli/bin.ts ...`), as tests and development do; bin/cluster-probe.js runs
// the compiled main from dist/.
import { run } from './main.js';

process.exitCode = await run(process.argv);
