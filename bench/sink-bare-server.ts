/**
 * Child process of the sink benchmark: a bare node:http server that reads each request body
 * and answers 200 without storing anything. With CW_BENCH_CHECK_SECRET set, it first makes
 * exactly the sink's checks of a push, with the sink's own functions (verifySignature: the
 * strongest signature present, X-Hub-Signature-256 else X-Hub-Signature, with that secret;
 * then jsonDepthExceeds at the default depth limit; then countDocuments: JSON parse and the
 * `documents` array; 401/400 when they fail), still
 * storing nothing: the checks-only server the sink's headline bar is measured against.
 * Prints `{"port": n}` on stdout once listening; exits on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countDocuments } from '../src/sink/count-documents.js';
import { DEFAULT_BODY_DEPTH_LIMIT } from '../src/sink/sink-options.js';
import { verifySignature } from '../src/sink/verify-signature.js';
import { headerOf } from '../src/util/header-of.js';
import { jsonDepthExceeds } from '../src/util/json-depth.js';

const secret = process.env.CW_BENCH_CHECK_SECRET;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    if (secret !== undefined) chunks.push(chunk);
  });
  req.on('end', () => {
    let status = 200;
    if (secret !== undefined) {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      const sha1 = headerOf(req, 'x-hub-signature');
      const sha256 = headerOf(req, 'x-hub-signature-256');
      if (!verifySignature(secret, body, sha1, sha256)) status = 401;
      else if (jsonDepthExceeds(body, DEFAULT_BODY_DEPTH_LIMIT)) status = 400;
      else if (typeof countDocuments(body) !== 'number') status = 400;
    }
    const text = status === 200 ? '{"status":"accepted"}' : '{"error":"refused"}';
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': text.length });
    res.end(text);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
