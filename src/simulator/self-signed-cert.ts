/**
 * A fresh self-signed certificate for the loopback names (IP 127.0.0.1 and DNS localhost):
 * the simulator's TLS mode, trusted by a client given `cert` as its CA. EC P-256 keys are
 * generated in milliseconds, unlike RSA, so TLS tests stay fast. The library (and its X.509
 * stack, slow to load) comes with this module, which the simulator imports lazily, in TLS mode
 * only.
 */
import { generate } from 'selfsigned';

export async function selfSignedLoopbackCert(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
