// Runs the `edfi-api` load commands in-process (commander with exitOverride) and returns what they printed.
import { Command } from 'commander';
import { vi } from 'vitest';
import { registerLoadCommands } from '../../../src/load/index.js';

export async function runLoadCommand(...args: string[]): Promise<string> {
  const output: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    output.push(String(chunk));
    return true;
  });
  try {
    const program = new Command('edfi-api').exitOverride();
    registerLoadCommands(program);
    await program.parseAsync(['node', 'edfi-api', ...args]);
  } finally {
    write.mockRestore();
  }
  return output.join('');
}
