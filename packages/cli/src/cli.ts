#!/usr/bin/env node
import { text } from 'node:stream/consumers';
import { CommandError } from './client.ts';
import { main } from './main.ts';

// The `datalab` command (package.json "bin"): Node 24 runs this TypeScript directly, found through the workspace
// link's real path. Usage: `datalab --help`, and docs/cli.md.

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  // A terminal is not a document: waiting for one would look like a hang.
  readStdin: async () => {
    if (process.stdin.isTTY) throw new CommandError('Give the document with --file, or pipe it to standard input');
    return text(process.stdin);
  },
});
