// The image's HEALTHCHECK: 0 when this container's server answers GET /health/ready with 200 (its store answers),
// 1 otherwise. A worker serves no HTTP: it counts as healthy while it runs (a worker that stops beating its job's
// heartbeat has the job taken over by another, docs/operations.md).
import { readFileSync } from 'node:fs';

function role() {
  // The role given to PID 1 as an argument (entrypoint.sh exports the bare form as DATALAB_ROLE, in its own process).
  const argv = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
  const at = argv.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (at >= 0) return argv[at].includes('=') ? argv[at].slice('--role='.length) : argv[at + 1];
  const environ = readFileSync('/proc/1/environ', 'utf8').split('\0');
  const own = environ.find((entry) => entry.startsWith('DATALAB_ROLE='));
  return (own ?? `DATALAB_ROLE=${process.env.DATALAB_ROLE ?? 'all'}`).slice('DATALAB_ROLE='.length);
}

let current = 'all';
try {
  current = role();
} catch {
  // /proc unreadable: judge by HTTP.
}
if (current === 'worker') process.exit(0);

const port = process.env.PORT || '8080';
try {
  const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.status === 200 ? 0 : 1);
} catch {
  process.exit(1);
}
