#!/usr/bin/env node
import module from 'node:module';

// Node 22.1 and later can keep the compiled code of the server's modules (the MCP SDK and its schema
// libraries: several hundred) in the OS temp folder, so a later start compiles nothing (measured on
// Node 22 and 24: about 5 to 10 % less CPU to start). Older Nodes have no such cache; the optional
// call keeps them working. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
module.enableCompileCache?.();

await import('../dist/cli.js');
