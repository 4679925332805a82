import { ensureServerBuild } from './server-build.ts';
import { buildWeb, webBuildIsStale } from './web-build.ts';

// Run by scripts/start.mjs before the server starts: builds the server bundle when it is missing or older than its
// sources and, unless `--no-web` (a download worker serves no pages), the portal likewise.

await ensureServerBuild();
if (!process.argv.includes('--no-web') && webBuildIsStale()) {
  process.stdout.write('Building the portal (first start, or its sources changed)...\n');
  buildWeb();
}
