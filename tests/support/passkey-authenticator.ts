import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string): Buffer => createHash('sha256').update(bytes).digest();

/**
 * A software passkey (one ES256 credential), answering the server's WebAuthn
 * options as a browser with a platform authenticator would: a `none`
 * attestation to register, a signed assertion to sign in. Chromium's virtual
 * authenticator does the same in the browser story; this one lets API tests
 * use real passkeys without a browser.
 */
export class SoftPasskey {
  readonly id: string;
  private readonly rawId: Buffer;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;

  /** `id` (base64url) picks the credential id, e.g. to present one that is already registered. */
  constructor(id?: string) {
    this.rawId = id ? Buffer.from(id, 'base64url') : randomBytes(16);
    this.id = b64url(this.rawId);
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  private authenticatorData(rpId: string, attested: boolean): Buffer {
    this.counter++;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
    const flags = Buffer.from([attested ? 0x45 : 0x05]);
    const parts = [sha256(rpId), flags, counter];
    if (attested) {
      const jwk = this.publicKey.export({ format: 'jwk' });
      const cose = new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.rawId.length);
      parts.push(Buffer.alloc(16), length, this.rawId, Buffer.from(isoCBOR.encode(cose)));
    }
    return Buffer.concat(parts);
  }

  /** The answer to `/api/auth/passkeys/register/options`' options. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string) {
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authenticatorData(options.rp.id ?? new URL(origin).hostname, true)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to `/api/auth/passkeys/login/options`' options; `forged` signs with another key. */
  assert(options: { challenge: string; rpId?: string }, origin: string, { forged = false } = {}) {
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin });
    const authenticatorData = this.authenticatorData(options.rpId ?? new URL(origin).hostname, false);
    const key = forged ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey : this.privateKey;
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }
}
