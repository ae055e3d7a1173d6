// The checkouts of this repository a benchmark runs: this one and, with `--baseline`, another one, each through its
// own built CLI.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI of one checkout of this repository. */
export interface BuiltCli {
  /** The checkout's root folder. */
  readonly root: string;
  /** `packages/server/dist/cli/main.js` of the checkout. */
  readonly entry: string;
}

export function checkoutAt(root: string): BuiltCli {
  return { root: resolve(root), entry: resolve(root, 'packages/server/dist/cli/main.js') };
}

export const thisCheckout: BuiltCli = checkoutAt(fileURLToPath(new URL('../../..', import.meta.url)));

export function builtCliAvailable(cli: BuiltCli = thisCheckout): boolean {
  return existsSync(cli.entry);
}

/** `/path (commit abc1234, with uncommitted changes)`, as far as git can tell. */
export function describeCheckout(cli: BuiltCli): string {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', cli.root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${cli.root} (commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ', with uncommitted changes' : ''})`;
  } catch {
    return cli.root;
  }
}
