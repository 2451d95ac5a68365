// The packages published to npm, in dependency order; every packaging check walks this list.
export const publishedPackages = [
  { name: '@dataworkz/context-values', dir: 'packages/context-values' },
  { name: '@dataworkz/client', dir: 'packages/client' },
  { name: '@dataworkz/a2a', dir: 'packages/a2a' },
  { name: '@dataworkz/emulator', dir: 'packages/emulator' },
];

// The packages that must run in browsers and edge runtimes (no Node built-in on their import path):
// all of them. The emulator's startEmulator is Node's own, behind its `node` import condition; a
// neutral bundle gets createEmulator and a startEmulator that says it needs Node.
export const neutralPackages = publishedPackages;
