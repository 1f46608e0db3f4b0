import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A self-signed certificate for 127.0.0.1, valid a day, made by openssl in a
 * folder of its own (`prefix`): the key and the certificate's files. A fake
 * service at the network edge serves HTTPS with it; the server under test
 * trusts it through NODE_EXTRA_CA_CERTS (`caFile`).
 */
export async function selfSignedCertificate(prefix: string): Promise<{ keyFile: string; caFile: string }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), prefix));
  const [keyFile, caFile] = [path.join(directory, 'key.pem'), path.join(directory, 'cert.pem')];
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    caFile,
  ]);
  return { keyFile, caFile };
}
