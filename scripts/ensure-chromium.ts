import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// End-to-end tests drive Debian's Chromium. Install it when it is absent (never a browser download).

export const CHROMIUM = '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    process.stderr.write(`Chromium is missing at ${CHROMIUM}; install it with: sudo apt-get install -y chromium\n`);
    process.exit(1);
  }
  process.stdout.write('Installing Chromium from Debian packages...\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium', 'fonts-liberation']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      process.stderr.write(`apt-get ${args.join(' ')} failed\n`);
      process.exit(1);
    }
  }
}
