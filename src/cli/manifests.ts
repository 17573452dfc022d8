// `cluster-probe manifests`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('manifests')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe manifests: not implemented yet\n');
      process.exitCode = 2;
    });
}
