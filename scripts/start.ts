import { buildWeb, webBuildIsStale } from './web-build.ts';

// `npm start`: build the portal if it is missing or older than its sources, then run the server
// in the embedded mode (SQLite, built-in sign-in, demo data) unless the environment says otherwise.

if (webBuildIsStale()) {
  process.stdout.write('Building the portal (first start, or its sources changed)...\n');
  buildWeb();
}
await import('../apps/server/src/server.ts');
