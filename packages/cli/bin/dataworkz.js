#!/usr/bin/env node
import module from 'node:module';

// Node 22.1 and later can keep the compiled code of the CLI's modules in the OS temp folder, so a
// later start compiles nothing (measured on Node 22 and 24: `--help` and `qna list` use 1 to 6 % less
// CPU, the more so the more modules a command loads). Older Nodes have no such cache; the optional
// call keeps them working. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

// A reader that stops early (`dataworkz --help | head`) closes the pipe: what is left to print has
// nowhere to go, which is the reader's choice, not an error to report with a stack trace.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv.slice(2));
