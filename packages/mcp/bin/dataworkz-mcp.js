#!/usr/bin/env node
import module from 'node:module';

// Node 22.1 and later can keep the compiled code of the server's modules (the MCP SDK and its schema
// libraries: several hundred) in the OS temp folder, which makes each later start cheaper (measured:
// some 10 % less CPU on Node 22 and 24). Older Nodes have no such cache; the check keeps them working.
module.enableCompileCache?.();

await import('../dist/cli.js');
