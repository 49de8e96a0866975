/**
 * MS-TDS packet framing (MS-TDS 2.2.3): every message travels in packets of an 8-byte header
 * (type, status, big-endian length including the header, SPID, packet id, window) and a body;
 * status bit 0x01 marks the last packet of a message, 0x08 asks for a connection reset.
 */
import type { Socket } from 'node:net';

export const PACKET = {
  SQL_BATCH: 0x01,
  TABULAR_RESULT: 0x04,
  ATTENTION: 0x06,
  TRANSACTION_MANAGER: 0x0e,
  LOGIN7: 0x10,
  PRELOGIN: 0x12,
} as const;

const HEADER = 8;
const END_OF_MESSAGE = 0x01;
const RESET_CONNECTION = 0x08;

export interface TdsMessage {
  type: number;
  /** The client asked for sp_reset_connection before this request. */
  reset: boolean;
  body: Buffer;
}

/** Reassembles the client's messages from the socket's bytes; ATTENTION is handed on as soon as it arrives. */
export function readMessages(socket: Socket, onMessage: (message: TdsMessage) => void): void {
  let pending = Buffer.alloc(0);
  let parts: Buffer[] = [];
  let reset = false;
  socket.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    while (pending.length >= HEADER) {
      const length = pending.readUInt16BE(2);
      if (pending.length < length) break;
      const type = pending[0]!;
      const status = pending[1]!;
      if (parts.length === 0) reset = (status & RESET_CONNECTION) !== 0;
      parts.push(pending.subarray(HEADER, length));
      pending = pending.subarray(length);
      if (status & END_OF_MESSAGE) {
        const body = Buffer.concat(parts);
        parts = [];
        onMessage({ type, reset, body });
      }
    }
  });
}

/** Writes the server's side of the conversation, cut into packets; waits for the socket to drain. */
export class MessageWriter {
  private packetId = 1;
  packetSize = 4096;

  constructor(private readonly socket: Socket) {}

  /** Sends `body` as packets of a tabular result; `last` ends the message. */
  async send(body: Buffer, last: boolean): Promise<void> {
    if (body.length === 0 && !last) return;
    const room = this.packetSize - HEADER;
    let offset = 0;
    do {
      const chunk = body.subarray(offset, offset + room);
      offset += chunk.length;
      const final = last && offset >= body.length;
      const header = Buffer.alloc(HEADER);
      header[0] = PACKET.TABULAR_RESULT;
      header[1] = final ? END_OF_MESSAGE : 0;
      header.writeUInt16BE(HEADER + chunk.length, 2);
      header.writeUInt16BE(51, 4);
      header[6] = this.packetId;
      this.packetId = (this.packetId + 1) % 256;
      if (this.socket.destroyed) return;
      if (!this.socket.write(Buffer.concat([header, chunk]))) await this.drained();
    } while (offset < body.length);
  }

  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }
}
