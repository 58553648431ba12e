import { type ChildProcess, spawn } from 'node:child_process';
import { commandMissing } from './command-missing.js';
import { freePort } from './free-port.js';

/** Credentials and region the SDK takes from the environment in tests (moto accepts any). */
export const MOTO_ENV = {
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_REGION: 'us-east-1',
} as const;

/** Why moto's S3 server cannot run here (the line a skipped test prints), or undefined. */
export function motoMissing(): string | undefined {
  return commandMissing('moto_server', 'none: pip install "moto[server]" (Python 3.11)')
    ? "moto_server not found: install it with `pip install 'moto[server]'` (Python 3.11; .ci/run does)"
    : undefined;
}

export interface RunningMoto {
  readonly url: string;
  stop(): Promise<void>;
}

/** moto's S3 server on a free loopback port, ready for requests. */
export async function startMoto(): Promise<RunningMoto> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`moto_server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/moto-api/`)).status < 500) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('moto_server did not answer within 90 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Creates `bucket` in moto; `publicRead`: a policy letting anonymous readers get its objects (icebird reads anonymously). */
export async function createBucket(motoUrl: string, bucket: string, publicRead = false): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const { S3Client, CreateBucketCommand, PutBucketPolicyCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: motoUrl,
    forcePathStyle: true,
    region: MOTO_ENV.AWS_REGION,
    credentials: { accessKeyId: MOTO_ENV.AWS_ACCESS_KEY_ID, secretAccessKey: MOTO_ENV.AWS_SECRET_ACCESS_KEY },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  if (publicRead)
    await client.send(
      new PutBucketPolicyCommand({
        Bucket: bucket,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: '*',
              Action: ['s3:GetObject', 's3:ListBucket'],
              Resource: [`arn:aws:s3:::${bucket}`, `arn:aws:s3:::${bucket}/*`],
            },
          ],
        }),
      }),
    );
  client.destroy();
}

/** Sets the SDK's environment for a test file (credentials, region); returns a function restoring it. */
export function useMotoEnv(): () => void {
  const saved = Object.fromEntries(Object.keys(MOTO_ENV).map((k) => [k, process.env[k]]));
  Object.assign(process.env, MOTO_ENV);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
