/** The push sink: receives signed deliveries, keeps them durably, loads them into the warehouse. */
export { hookPath, newPathToken, parseHookPath } from './hook-path.js';
export type { LoadResult } from './loader.js';
export { streamingSchemaPath } from './schema-validators.js';
export { DELIVERY_OUTCOMES, type DeliveryOutcome } from './sink-metrics.js';
export {
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_PUBLISH_INTERVAL_MS,
  DEFAULT_SINK_HOST,
  DEFAULT_SINK_PORT,
  type SinkOptions,
} from './sink-options.js';
export { type RunningSink, type SinkStats, startSink } from './start-sink.js';
export { verifySignature } from './verify-signature.js';
