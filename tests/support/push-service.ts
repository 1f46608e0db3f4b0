import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './certificate.ts';

/**
 * A fake push service at the network edge (we cannot reach a browser
 * vendor's from here): an HTTPS server on 127.0.0.1 that takes what a sender
 * POSTs to a subscription's endpoint (RFC 8030 §5) and answers 201 Created
 * with a Location, or 410 Gone for an endpoint marked gone. Its certificate is
 * self-signed: the server under test trusts it through NODE_EXTRA_CA_CERTS
 * (`caFile`). `device()` makes a subscriber's keys as a browser does (P-256
 * key pair and a 16-byte auth secret, RFC 8291 §2) so a test can decrypt
 * what arrived with `decrypt`.
 */
export interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** What the service answered: 201 delivered, 410 gone, 503 out. */
  status: number;
}

export interface Device {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The plaintext of an aes128gcm message sent to this device (RFC 8188 + RFC 8291). */
  decrypt(body: Buffer): string;
}

export interface PushService {
  url: string;
  /** Trust this certificate (NODE_EXTRA_CA_CERTS) to reach the service. */
  caFile: string;
  requests: PushRequest[];
  device(): Device;
  /** From now on the endpoint answers 410 Gone (the browser unsubscribed). */
  gone(endpoint: string): void;
  /** While `down`, the endpoint answers 503 (the push service is out); its requests are still recorded. */
  down(endpoint: string, down: boolean): void;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const { keyFile, caFile } = await selfSignedCertificate('push-service-');
  const requests: PushRequest[] = [];
  const goneEndpoints = new Set<string>();
  const downEndpoints = new Set<string>();
  const server = createServer({ key: await readFile(keyFile), cert: await readFile(caFile) }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const pathname = request.url ?? '';
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      const status = goneEndpoints.has(pathname) ? 410 : downEndpoints.has(pathname) ? 503 : 201;
      requests.push({ path: pathname, headers: request.headers, body: Buffer.concat(chunks), status });
      if (status !== 201) {
        response.writeHead(status).end();
        return;
      }
      response.writeHead(201, { Location: `${url}/messages/${randomBytes(8).toString('hex')}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    caFile,
    requests,
    device() {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        endpoint: `${url}/push/${randomBytes(12).toString('hex')}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
        decrypt: (body) => decrypt(body, ecdh.computeSecret.bind(ecdh), publicKey, auth),
      };
    },
    gone(endpoint) {
      goneEndpoints.add(new URL(endpoint).pathname);
    },
    down(endpoint, down) {
      if (down) downEndpoints.add(new URL(endpoint).pathname);
      else downEndpoints.delete(new URL(endpoint).pathname);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record of aes128gcm, keys from the sender's key in the header. */
function decrypt(body: Buffer, secretWith: (key: Buffer) => Buffer, uaPublic: Buffer, auth: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', secretWith(asPublic), auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero or more 0x00 of padding.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}
