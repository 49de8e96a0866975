#!/usr/bin/env node
// The installed `nao` command: runs the compiled CLI (npm run build writes dist/).
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`nao: unexpected error: ${error?.stack ?? error}\n`);
    process.exitCode = 1;
  },
);
