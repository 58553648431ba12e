/**
 * The deploy guide's nginx configuration, as written in docs/deploy.md (the ```nginx block),
 * run with Debian's nginx in front of a real sink child process, all on loopback: a signed
 * push over HTTPS is acknowledged and lands in the warehouse; /metrics and /healthz are not
 * exposed (404); a body over the limit is refused with 413. Only the certificate paths (a
 * self-signed certificate), the listen port and the sink's port are substituted. nginx runs in
 * the foreground with its prefix, pid, logs and temp paths in a temp folder, and is killed
 * after. Without nginx this test says so and does not run (CI installs it: .ci/run).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { accessSync, constants, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookPath } from '../../src/sink/hook-path.js';
import { packageRoot } from '../../src/util/package-root.js';
import { queryReadOnly } from '../../src/warehouse/read/query-read-only.js';
import { ensureBuiltCli } from '../helpers/built-cli.js';
import { freePort } from '../helpers/free-port.js';
import { type SinkChild, spawnSinkCli } from '../helpers/sink-child.js';
import { deliveryBody, insertHook, sampleDocument, type TestHook } from '../helpers/sink-fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';

const NGINX = '/usr/sbin/nginx';
const SERVER_NAME = 'sink.example.com';

function nginxMissing(): string | undefined {
  try {
    accessSync(NGINX, constants.X_OK);
    return undefined;
  } catch {
    return `${NGINX} not found (Debian package nginx-light; .ci/run installs it)`;
  }
}
const missing = nginxMissing();
if (missing) console.warn(`deploy-nginx.test.ts did NOT run: ${missing}`);

/** The guide's nginx server block, with this test's certificate, port and upstream. */
function guideServerBlock(paths: { cert: string; key: string }, listenPort: number, sinkPort: number) {
  const guide = readFileSync(join(packageRoot(), 'docs', 'deploy.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/deploy.md has no ```nginx block');
  const substitutions: [RegExp, string][] = [
    [/listen 443 ssl;/, `listen 127.0.0.1:${listenPort} ssl;`],
    [/ssl_certificate\s+\S+;/, `ssl_certificate ${paths.cert};`],
    [/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${paths.key};`],
    [/127\.0\.0\.1:8787/g, `127.0.0.1:${sinkPort}`],
  ];
  let config = block;
  for (const [pattern, replacement] of substitutions) {
    if (!pattern.test(config)) throw new Error(`the guide's nginx block no longer has ${pattern}`);
    config = config.replace(pattern, replacement);
  }
  return config;
}

/** Resolves once something accepts TCP connections on the port (nginx has no ready signal). */
async function listening(port: number, proc: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited ${proc.exitCode}: ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(missing !== undefined)('the deploy guide: nginx in front of the sink', () => {
  const dir = tempDir('cw-nginx-');
  const dataDir = join(dir, 'data');
  let sink: SinkChild;
  let nginx: ChildProcess | undefined;
  let nginxLog = '';
  let port = 0;
  let ca = '';
  let hook: TestHook;

  beforeAll(async () => {
    ensureBuiltCli();
    hook = insertHook(dataDir, { searchType: 'editorial' });
    sink = await spawnSinkCli(dataDir, ['--publish-interval', '0.2']);
    const pems = await generate([{ name: 'commonName', value: SERVER_NAME }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: SERVER_NAME }] }],
    });
    ca = pems.cert;
    const paths = { cert: join(dir, 'fullchain.pem'), key: join(dir, 'privkey.pem') };
    writeFileSync(paths.cert, pems.cert);
    writeFileSync(paths.key, pems.private, { mode: 0o600 });
    port = await freePort();
    const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
    writeFileSync(
      join(dir, 'nginx.conf'),
      [
        'daemon off;',
        // One process, as this user: no workers switching to another user, nothing left behind.
        'master_process off;',
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events { worker_connections 64; }',
        'http {',
        '  access_log off;',
        `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
        guideServerBlock(paths, port, Number(new URL(sink.url).port)),
        '}',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    nginx.stderr?.on('data', (chunk: Buffer) => {
      nginxLog += chunk.toString();
    });
    await listening(port, nginx, () => nginxLog);
  }, 60_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx?.once('exit', resolve));
      nginx.kill('SIGKILL');
      await exited;
    }
    if (sink && sink.process.exitCode === null) {
      sink.process.kill('SIGTERM');
      await sink.exited;
    }
  });

  /** An HTTPS request to nginx for sink.example.com, trusting the self-signed certificate. */
  function viaNginx(
    method: string,
    path: string,
    headers: Record<string, string | number> = {},
    body?: string,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = request(
        { host: '127.0.0.1', port, servername: SERVER_NAME, ca, method, path, headers },
        (res) => {
          answered = true;
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      if (body === undefined) req.flushHeaders();
      else req.end(body);
    });
  }

  it('acknowledges a signed push over HTTPS, and it lands in the warehouse', async () => {
    const body = deliveryBody(hook, [sampleDocument('through-nginx')]);
    const { status, text } = await viaNginx(
      'POST',
      hookPath(hook.pathToken),
      {
        'content-type': 'application/json',
        'x-hub-signature-256': `sha256=${createHmac('sha256', hook.secret).update(body).digest('hex')}`,
      },
      body,
    );
    expect({ status, text }).toMatchObject({ status: 200, text: expect.stringContaining('"accepted"') });
    // The loader publishes within its interval: wait for its log line, then read the warehouse.
    while (!sink.stderr().includes('"msg":"sink: published"')) {
      expect(sink.process.exitCode).toBeNull();
      await new Promise((r) => setTimeout(r, 50));
    }
    const rows = await queryReadOnly(dataDir, 'select hook_id, document_id from stream_documents');
    expect(rows.rows).toEqual([[hook.hookId, 'through-nginx']]);
  }, 30_000);

  it('answers 404 for /metrics and /healthz: they stay internal', async () => {
    expect((await viaNginx('GET', '/metrics')).status).toBe(404);
    expect((await viaNginx('GET', '/healthz')).status).toBe(404);
    expect((await fetch(`${sink.url}/metrics`)).status).toBe(200); // still there on loopback
  });

  it('refuses a body over the limit with 413', async () => {
    const { status } = await viaNginx('POST', hookPath(hook.pathToken), {
      'content-type': 'application/json',
      'content-length': 11 * 1024 * 1024,
    });
    expect(status).toBe(413);
  });
});
