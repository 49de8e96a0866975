/**
 * With `encrypt` on, tedious still logs in over clear text when the server's PRELOGIN answer
 * says it cannot encrypt (ENCRYPT_NOT_SUP), where Microsoft's own drivers fail: anyone
 * answering in the server's place would get the login. This connector reads the PRELOGIN
 * answer as it arrives and closes the socket, before tedious writes LOGIN7, unless the server
 * agreed to encrypt (ENCRYPT_ON or ENCRYPT_REQ; MS-TDS 2.2.6.5).
 */
import net from 'node:net';

/** The connector tedious calls with where to connect (its `options.connector`). */
export type TdsConnector = (
  options: { host: string; port: number; localAddress?: string | undefined },
  lookup: unknown,
  signal?: AbortSignal,
) => Promise<net.Socket>;

const HEADER = 8;
const ENCRYPTION = 0x01;
const TERMINATOR = 0xff;
const ENCRYPT_ON = 0x01;
const ENCRYPT_REQ = 0x03;

/** The server's ENCRYPTION option from a PRELOGIN answer packet; undefined when it has none. */
export function preloginEncryption(packet: Buffer): number | undefined {
  const payload = packet.subarray(HEADER);
  for (let at = 0; at + 5 <= payload.length && payload[at] !== TERMINATOR; at += 5) {
    if (payload[at] !== ENCRYPTION) continue;
    const offset = payload.readUInt16BE(at + 1);
    return payload[offset];
  }
  return undefined;
}

/** A connector that calls `onRefused` and closes the socket when the server will not encrypt. */
export function encryptingConnector(onRefused: () => void): TdsConnector {
  return (options, _lookup, signal) =>
    new Promise((resolve, reject) => {
      const socket = net.connect({
        host: options.host,
        port: options.port,
        localAddress: options.localAddress,
      });
      // tedious aborts a connection attempt that passes its connect timeout.
      const onAbort = () => {
        socket.destroy();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      let answer = Buffer.alloc(0);
      const watch = (data: Buffer) => {
        answer = Buffer.concat([answer, data]);
        if (answer.length < HEADER || answer.length < answer.readUInt16BE(2)) return;
        socket.off('data', watch);
        const encryption = preloginEncryption(answer);
        if (encryption !== ENCRYPT_ON && encryption !== ENCRYPT_REQ) {
          onRefused();
          socket.destroy();
        }
      };
      // Before tedious' own listener: the socket is closed before it can answer with LOGIN7.
      socket.prependListener('data', watch);
      socket.once('connect', () => {
        signal?.removeEventListener('abort', onAbort);
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
    });
}
