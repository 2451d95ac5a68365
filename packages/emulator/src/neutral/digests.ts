import { sha1 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

// The digests where Node's own are not at hand (browsers, edge runtimes): synchronous, as the
// seeded ids and the key checks need them. src/node/digests.ts is the same under the `node` condition.

export const sha1Hex = (text: string): string => bytesToHex(sha1(utf8ToBytes(text)));

export const sha256Bytes = (text: string): Uint8Array => sha256(utf8ToBytes(text));

export const sha256Hex = (bytes: Uint8Array): string => bytesToHex(sha256(bytes));
