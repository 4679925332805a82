import { join, resolve } from 'node:path';

// Where the server's own files are. This module stays directly in src/: bundled (scripts/server-build.ts), its code
// runs from apps/server/dist/, one level below apps/server as src/ is, so the same relative path holds for both.

export const SERVER_PACKAGE_DIR = resolve(import.meta.dirname, '..');

/** The sign-in pages' stylesheet and script. */
export const OIDC_ASSETS_DIR = join(SERVER_PACKAGE_DIR, 'src/oidc/assets');

/** The built portal (npm run build), unless WEB_DIST_DIR says otherwise. */
export const DEFAULT_WEB_DIST = resolve(SERVER_PACKAGE_DIR, '../web/dist');
