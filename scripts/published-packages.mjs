// The packages published to npm, in dependency order; every packaging check walks this list.
export const publishedPackages = [
  { name: '@dataworkz/context-values', dir: 'packages/context-values' },
  { name: '@dataworkz/client', dir: 'packages/client' },
  { name: '@dataworkz/a2a', dir: 'packages/a2a' },
  { name: '@dataworkz/emulator', dir: 'packages/emulator' },
];
