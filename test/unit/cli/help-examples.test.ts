// Every command's `--help`, and the program's own, ends with examples an operator can copy: an "Examples:" section
// (or "Example:") with at least one `cluster-probe <that command>` line. Walks the real program, so a new command without examples
// fails here.
import { expect } from 'chai';
import type { Command } from 'commander';
import { buildProgram } from '../../../src/cli/main.js';

function helpOf(cmd: Command): string {
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

function walk(cmd: Command, path: string[]): [string[], Command][] {
  const own: [string[], Command][] = [[path, cmd]];
  return own.concat(cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => walk(c, [...path, c.name()])));
}

describe('cluster-probe --help', () => {
  it('has examples for the program and for every command and subcommand', async () => {
    const program = await buildProgram();
    const all = walk(program, []);
    expect(all.length, 'commands found').to.be.greaterThan(10);
    const missing: string[] = [];
    for (const [path, cmd] of all) {
      const text = helpOf(cmd);
      const name = ['cluster-probe', ...path].join(' ');
      const example = text.split('\n').some((line) => {
        const command = line.trim().replace(/^\$ /, '');
        return command === name || command.startsWith(`${name} `);
      });
      if (!/^Examples?:$/m.test(text) || !example) missing.push(name);
    }
    expect(missing, 'commands whose --help has no "Examples:" with a `cluster-probe <command>` line').to.deep.equal([]);
  });
});
