// Runs one command to completion with a time limit, capturing its output: kubectl and the cluster-probe CLI as the
// local control plane drives them. Never throws for a non-zero exit; a command that cannot start is an error.
import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to stdin (stdin is closed either way). */
  input?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** How the command is named in messages, e.g. `kubectl apply`. */
  label: string;
  /** Added to the error when the command cannot be started, e.g. "(is it on PATH?)". */
  startHint?: string;
}

export function runCommand(command: string, args: string[], options: RunOptions): Promise<CommandResult> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      stderr += `\n${options.label}: killed after ${timeoutMs} ms`;
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${command}${options.startHint ? ` ${options.startHint}` : ''}: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // the command may exit before reading its input
    child.stdin.end(options.input ?? '');
  });
}
