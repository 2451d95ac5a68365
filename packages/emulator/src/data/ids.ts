import { createHash } from 'node:crypto';

/** A stable, UUID-shaped id derived from a name, so seeded ids never change between runs. */
export function stableId(name: string): string {
  const hex = createHash('sha1').update(`dataworkz-emulator:${name}`).digest('hex');
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
