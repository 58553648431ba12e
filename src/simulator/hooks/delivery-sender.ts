/**
 * Sends one delivery body over HTTP(S) with undici: one keep-alive Agent for every target,
 * a hard timeout per attempt, and an outcome that is the status code, 'timeout' or 'error'.
 */
import { Agent, request } from 'undici';

export type DeliveryOutcome = number | 'timeout' | 'error';

export interface SendOptions {
  readonly url: string;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** Keep-alive connections stay open this long between deliveries (rate 2/s keeps them warm). */
const KEEP_ALIVE_MS = 10_000;
/** Parallel connections per target origin: enough for a few slow answers at the default rate. */
const CONNECTIONS_PER_ORIGIN = 8;
/** undici error codes that mean the target did not answer in time. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export class DeliverySender {
  private readonly agent: Agent;
  private readonly inFlight = new Set<AbortController>();

  /** @param ca extra trusted CA certificate(s) (PEM) for https targets, e.g. a test's self-signed one. */
  constructor(ca?: string | Buffer | readonly (string | Buffer)[]) {
    this.agent = new Agent({
      keepAliveTimeout: KEEP_ALIVE_MS,
      connections: CONNECTIONS_PER_ORIGIN,
      ...(ca === undefined ? {} : { connect: { ca: Array.isArray(ca) ? [...ca] : (ca as string | Buffer) } }),
    });
  }

  /** Never throws: every failure becomes an outcome. */
  async send(options: SendOptions): Promise<DeliveryOutcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
    this.inFlight.add(controller);
    try {
      const response = await request(options.url, {
        dispatcher: this.agent,
        method: 'POST',
        body: options.body,
        headers: { ...options.headers },
        signal: controller.signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      await response.body.dump();
      return response.statusCode;
    } catch (error) {
      return timedOut || isTimeout(error) ? 'timeout' : 'error';
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
  }

  /** Aborts every send in flight and closes all connections. */
  async close(): Promise<void> {
    for (const controller of this.inFlight) controller.abort();
    await this.agent.destroy();
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TIMEOUT_CODES.has(code);
}
