import { backtrackingPattern, connectionTargets } from './attack/reach.ts';
import { downloadCases } from './attack/downloads.ts';
import { privilegedAccounts } from './attack/databases.ts';
import { replyContents, startAndBodies, tokenShapedSecrets } from './attack/replies.ts';
import { results } from './attack/world.ts';

// The attack cases of docs/security.md ("Attack cases re-run against a built server"), sent as an outsider, a
// Reader, a partner and a narrowed token would, to a running server in the embedded demo mode. Start it as:
//
//   PORT=8117 DATA_DIR=/tmp/attack DEMO_SHOP_ORDERS=2000 SQL_HOST_ALLOWLIST=127.0.0.1:5432,127.0.0.1:3306 \
//     MAX_EXPORT_ROWS=50 DOWNLOAD_RETENTION_HOURS=0.01 npm start
//
// then `BASE_URL=http://localhost:8117 DATA_DIR=/tmp/attack node scripts/attack-check.ts`. It needs the local
// PostgreSQL (`postgres`, trust) and MariaDB (`root`) of a development machine, and a read-only PostgreSQL login
// `dl_attack_ro` (password `attack-ro`; `create role dl_attack_ro login password 'attack-ro'`). Each case prints
// HELD or BROKE and what came back; the exit code is the number of broken cases. It changes the demo's data.

await connectionTargets();
await backtrackingPattern();
await downloadCases();
await privilegedAccounts();
await tokenShapedSecrets();
await replyContents();
await startAndBodies();

const broken = results.filter((r) => !r.held);
process.stdout.write(`\n${results.length - broken.length} held, ${broken.length} broke\n`);
process.exit(broken.length);
