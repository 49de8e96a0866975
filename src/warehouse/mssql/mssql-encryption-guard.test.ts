import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptingConnector, preloginEncryption } from './mssql-encryption-guard.js';

/** A PRELOGIN answer packet with VERSION and ENCRYPTION options (MS-TDS 2.2.6.5). */
function preloginAnswer(encryption: number): Buffer {
  const payload = Buffer.from([0x00, 0, 11, 0, 6, 0x01, 0, 17, 0, 1, 0xff, 16, 0, 0, 0, 0, 0, encryption]);
  const header = Buffer.from([0x04, 0x01, 0, 8 + payload.length, 0, 0, 1, 0]);
  return Buffer.concat([header, payload]);
}

describe('preloginEncryption', () => {
  it.each([
    [0x00, 'ENCRYPT_OFF'],
    [0x01, 'ENCRYPT_ON'],
    [0x02, 'ENCRYPT_NOT_SUP'],
    [0x03, 'ENCRYPT_REQ'],
  ])('reads %i (%s)', (value) => {
    expect(preloginEncryption(preloginAnswer(value))).toBe(value);
  });
});

describe('encryptingConnector', () => {
  let server: net.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** Connects to a server that sends `answer` in two pieces, and reports what the client side saw. */
  async function connect(
    answer: Buffer,
  ): Promise<{ refused: boolean; received: Buffer; destroyed: boolean }> {
    server = net.createServer((socket) => {
      socket.write(answer.subarray(0, 5));
      setTimeout(() => socket.write(answer.subarray(5)), 20);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    let refused = false;
    const socket = await encryptingConnector(() => {
      refused = true;
    })({ host: '127.0.0.1', port }, undefined);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const destroyed = socket.destroyed;
    socket.destroy();
    return { refused, received: Buffer.concat(chunks), destroyed };
  }

  it('hands every byte on and keeps the socket when the server will encrypt', async () => {
    const answer = preloginAnswer(0x01);
    expect(await connect(answer)).toEqual({ refused: false, received: answer, destroyed: false });
  });

  it('closes the socket when the server cannot encrypt', async () => {
    const result = await connect(preloginAnswer(0x02));
    expect(result.refused).toBe(true);
    expect(result.destroyed).toBe(true);
  });
});
