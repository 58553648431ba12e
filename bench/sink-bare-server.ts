/**
 * Child process of the sink benchmark: a bare node:http server that reads each request body
 * and answers 200 without storing anything, the ceiling the sink is compared against.
 * Prints `{"port": n}` on stdout once listening; exits on SIGTERM.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    const text = '{"status":"accepted"}';
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': text.length });
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
