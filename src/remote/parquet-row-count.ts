import { open } from 'node:fs/promises';

/**
 * The rows of a Parquet file, read from its footer alone (FileMetaData's `num_rows`, field 3,
 * in Thrift's compact protocol): no DuckDB, two small reads. `status` and /metrics use it to
 * tell a file the remote lacks from an empty one, which is never uploaded. Throws on a file
 * that is no Parquet file.
 */
export async function parquetRowCount(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(8);
    if (
      size < 12 ||
      (await file.read(tail, 0, 8, size - 8)).bytesRead !== 8 ||
      tail.toString('latin1', 4) !== 'PAR1'
    )
      throw new Error(`remote: ${path} is not a Parquet file`);
    const length = tail.readUInt32LE(0);
    if (length > size - 12) throw new Error(`remote: ${path} has a broken Parquet footer`);
    const footer = Buffer.alloc(length);
    await file.read(footer, 0, length, size - 8 - length);
    return numRows(new CompactReader(footer), path);
  } finally {
    await file.close();
  }
}

/** FileMetaData's field 3 (i64); the fields before it (version, schema) skipped. */
function numRows(reader: CompactReader, path: string): number {
  let id = 0;
  for (;;) {
    const header = reader.byte();
    const type = header & 0x0f;
    if (type === STOP) break;
    const delta = header >> 4;
    id = delta ? id + delta : zigzag(reader.varint());
    if (id === 3 && type === I64) return zigzag(reader.varint());
    reader.skip(type);
  }
  throw new Error(`remote: ${path}'s Parquet footer has no row count`);
}

const STOP = 0;
const I64 = 6;

const zigzag = (n: number) => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);

/** Just enough of Thrift's compact protocol to walk past fields. */
class CompactReader {
  #at = 0;
  constructor(private readonly bytes: Buffer) {}

  byte(): number {
    if (this.#at >= this.bytes.length) throw new Error('remote: a Parquet footer ends early');
    return this.bytes[this.#at++]!;
  }

  /** An unsigned varint (a number: the values read here are far below 2^53). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 128;
    }
  }

  /** Skips a value of compact type `type`. */
  skip(type: number): void {
    switch (type) {
      case 1: // true
      case 2: // false (a field's boolean is in its type)
        return;
      case 3: // i8
        this.#at += 1;
        return;
      case 4: // i16
      case 5: // i32
      case 6: // i64
        this.varint();
        return;
      case 7: // double
        this.#at += 8;
        return;
      case 8: {
        // binary (its length read before #at moves past it)
        const length = this.varint();
        this.#at += length;
        return;
      }
      case 9: // list
      case 10: {
        // set
        const header = this.byte();
        const count = header >> 4 === 15 ? this.varint() : header >> 4;
        for (let i = 0; i < count; i++) this.#element(header & 0x0f);
        return;
      }
      case 11: {
        // map
        const count = this.varint();
        if (count === 0) return;
        const kinds = this.byte();
        for (let i = 0; i < count; i++) {
          this.#element(kinds >> 4);
          this.#element(kinds & 0x0f);
        }
        return;
      }
      case 12: // struct
        for (;;) {
          const header = this.byte();
          if ((header & 0x0f) === STOP) return;
          if (header >> 4 === 0) this.varint();
          this.skip(header & 0x0f);
        }
      default:
        throw new Error(`remote: a Parquet footer holds an unknown Thrift type ${type}`);
    }
  }

  /** A list's, set's or map's element: a boolean there takes a byte. */
  #element(type: number): void {
    if (type === 1 || type === 2) this.#at += 1;
    else this.skip(type);
  }
}
