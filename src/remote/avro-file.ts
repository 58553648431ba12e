import { Readable } from 'node:stream';
import avro from 'avsc';

/**
 * An Avro object container file of `records`, with `metadata` in its header (Iceberg keeps a
 * manifest's schema and partition spec there). The schema is written as given, with its
 * `field-id` attributes (a Type's own schema would drop them). Deflate, as Iceberg's writers do.
 */
export function encodeAvroFile(
  schema: object,
  records: readonly object[],
  metadata: Readonly<Record<string, string>>,
): Promise<Buffer> {
  // `metadata` is an option of avsc's encoder that its type declarations leave out.
  const options = {
    codec: 'deflate',
    metadata: Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v)])),
  } as ConstructorParameters<typeof avro.streams.BlockEncoder>[1];
  const encoder = new avro.streams.BlockEncoder(schema as avro.Schema, options);
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    encoder.on('data', (chunk: Buffer) => chunks.push(chunk));
    encoder.on('end', () => resolve(Buffer.concat(chunks)));
    encoder.on('error', reject);
    encoder.on('typeError', (error: Error) => reject(error));
    for (const record of records) encoder.write(record);
    encoder.end();
  });
}

/** The records and header metadata of an Avro object container file, read with the schema in its header. */
export function decodeAvroFile(
  bytes: Buffer,
): Promise<{ metadata: Record<string, string>; records: unknown[] }> {
  const decoder = new avro.streams.BlockDecoder();
  const records: unknown[] = [];
  let metadata: Record<string, string> = {};
  return new Promise((resolve, reject) => {
    decoder.on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer> }) => {
      metadata = Object.fromEntries(Object.entries(header.meta).map(([k, v]) => [k, v.toString()]));
    });
    decoder.on('data', (record: unknown) => records.push(record));
    decoder.on('end', () => resolve({ metadata, records }));
    decoder.on('error', reject);
    Readable.from([bytes]).pipe(decoder);
  });
}
