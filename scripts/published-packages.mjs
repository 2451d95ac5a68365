// The packages published to npm, in dependency order; every packaging check walks this list.
export const publishedPackages = [
  { name: '@dataworkz/context-values', dir: 'packages/context-values' },
  { name: '@dataworkz/redaction', dir: 'packages/redaction' },
  { name: '@dataworkz/client', dir: 'packages/client' },
  { name: '@dataworkz/a2a', dir: 'packages/a2a' },
  { name: '@dataworkz/emulator', dir: 'packages/emulator' },
  { name: '@dataworkz/mcp', dir: 'packages/mcp' },
  { name: '@dataworkz/ai-sdk', dir: 'packages/ai-sdk' },
  { name: '@dataworkz/langchain', dir: 'packages/langchain' },
  { name: '@dataworkz/cli', dir: 'packages/cli' },
];

// The packages that must run in browsers and edge runtimes (no Node built-in on their import path).
// The MCP server and the CLI are Node programs (stdio, node:http, a terminal); the emulator's
// startEmulator is Node's own, behind its `node` import condition, so a neutral bundle of it gets
// createEmulator.
const nodePrograms = new Set(['@dataworkz/mcp', '@dataworkz/cli']);
export const neutralPackages = publishedPackages.filter((pkg) => !nodePrograms.has(pkg.name));
