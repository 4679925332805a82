import { spawnSync } from 'node:child_process';

// The command-line tools the deployment tests run. Outside CI a missing tool skips its tests with the reason; in CI
// (`CI=true`) the tests run anyway and fail, because a green CI must mean the files were checked.

export function hasTool(command: string, versionArgs: string[] = ['--version']): boolean {
  const result = spawnSync(command, versionArgs, { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

/** True when the tests of `command` should be skipped (absent, and not in CI); says why on stderr. */
export function skipWithout(command: string, versionArgs: string[], install: string): boolean {
  if (hasTool(command, versionArgs)) return false;
  if (process.env['CI']) return false;
  console.warn(`\n*** ${command} is not installed: its checks are SKIPPED (install it: ${install}) ***\n`);
  return true;
}
