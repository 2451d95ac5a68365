import type { IncomingMessage } from 'node:http';

/**
 * Whether a node:http request comes from this machine, by its socket's addresses (which the kernel
 * sets, not the client): a loopback peer, or one at the very address it connected to. A container's
 * host reaching it through Docker's port mapping comes from the bridge's address, so it is elsewhere.
 */
export function fromThisMachine(req: IncomingMessage): boolean {
  const peer = req.socket.remoteAddress?.replace(/^::ffff:/, '');
  if (peer === undefined) return false;
  return (
    peer === '::1' || peer.startsWith('127.') || peer === req.socket.localAddress?.replace(/^::ffff:/, '')
  );
}
