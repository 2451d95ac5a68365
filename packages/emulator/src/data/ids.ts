import { sha1Hex } from '../neutral/crypto.js';

/** A stable, UUID-shaped id derived from a name, so seeded ids never change between runs. */
export function stableId(name: string): string {
  const hex = sha1Hex(`dataworkz-emulator:${name}`);
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
