// Answers written to one client in one turn of the event loop go out in one write. A client that sends
// thousands of requests at once gets thousands of small answers (most of them refusals); written one by one,
// each was its own system call, and in the flood profile those writes were the largest share of the stall.
// Corking the connection's TCP socket for the rest of the turn lets Node hand them to the kernel together.
import type { Socket as NetSocket } from 'node:net';
import type { Socket } from 'socket.io';

/** The TCP socket under a websocket connection; undefined for long polling (its answers are batched already). */
function tcpSocket(socket: Socket): NetSocket | undefined {
  const transport = (socket.conn as unknown as { transport?: { socket?: { _socket?: NetSocket } } }).transport;
  return transport?.socket?._socket;
}

/** Installs the cork on every incoming packet of socket. */
export function corkEachTurn(socket: Socket): void {
  let corked: NetSocket | undefined;
  socket.use((_packet, next) => {
    if (!corked) {
      const tcp = tcpSocket(socket);
      if (tcp && !tcp.destroyed) {
        tcp.cork();
        corked = tcp;
        setImmediate(() => {
          corked?.uncork();
          corked = undefined;
        });
      }
    }
    next();
  });
}
