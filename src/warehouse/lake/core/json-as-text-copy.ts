import { closeSync, copyFileSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';

/**
 * A copy of a Parquet file whose JSON columns read as plain text (VARCHAR). DuckDB validates
 * a JSON column's every value as it reads it and has no option not to, so a file holding text
 * it refuses (the escape of a lone surrogate, `\ud800`) cannot be read at all, not even to be
 * repaired. The copy differs only in its footer's annotations of those columns, patched in
 * place to the same number of bytes: the legacy converted type JSON becomes UTF8 (which DuckDB
 * goes by) and the logical type JSON becomes STRING. The data pages are the same bytes.
 * Returns the names of the columns so annotated (none: nothing to read as text; the copy is
 * made anyway).
 *
 * The footer is Thrift's compact protocol (parquet.thrift: FileMetaData, its field 2 the list
 * of SchemaElement: 4 name, 6 converted_type, 10 logicalType, whose union member 12 is JSON).
 */
export function copyJsonAsText(from: string, to: string): string[] {
  copyFileSync(from, to);
  const fd = openSync(to, 'r+');
  try {
    const size = fstatSync(fd).size;
    const tail = Buffer.alloc(8);
    readSync(fd, tail, 0, 8, size - 8);
    if (tail.toString('latin1', 4) !== 'PAR1') throw new Error(`warehouse: ${from} is not a Parquet file`);
    const length = tail.readUInt32LE(0);
    const footer = Buffer.alloc(length);
    const at = size - 8 - length;
    readSync(fd, footer, 0, length, at);
    const columns = patchJsonColumns(footer);
    if (columns.length > 0) writeSync(fd, footer, 0, length, at);
    return columns;
  } finally {
    closeSync(fd);
  }
}

/** Compact-protocol type ids (the low nibble of a field header). */
const T = {
  TRUE: 1,
  FALSE: 2,
  BYTE: 3,
  I16: 4,
  I32: 5,
  I64: 6,
  DOUBLE: 7,
  BINARY: 8,
  LIST: 9,
  SET: 10,
  MAP: 11,
  STRUCT: 12,
};
const CONVERTED_JSON = 19;
const CONVERTED_UTF8 = 0;
/** The header of LogicalType's member 12 (JSON, an empty struct) and of member 1 (STRING). */
const LOGICAL_JSON_HEADER = (12 << 4) | T.STRUCT;
const LOGICAL_STRING_HEADER = (1 << 4) | T.STRUCT;

/** Patches the footer's JSON annotations in place; returns the columns patched. */
function patchJsonColumns(footer: Buffer): string[] {
  const reader = new CompactReader(footer);
  const patched: string[] = [];
  reader.struct((id, type) => {
    if (id !== 2 || type !== T.LIST) return false;
    const { size } = reader.listHeader();
    for (let i = 0; i < size; i++) {
      let name = '';
      let converted: number | undefined;
      let logical: number | undefined;
      reader.struct((field, fieldType) => {
        if (field === 4 && fieldType === T.BINARY) name = reader.binary().toString('utf8');
        else if (field === 6 && fieldType === T.I32) {
          const at = reader.pos;
          if (reader.varint() === CONVERTED_JSON * 2 && reader.pos === at + 1) converted = at;
        } else if (field === 10 && fieldType === T.STRUCT) {
          if (footer[reader.pos] === LOGICAL_JSON_HEADER) logical = reader.pos;
          reader.skip(T.STRUCT);
        } else return false;
        return true;
      });
      if (converted === undefined) continue;
      footer[converted] = CONVERTED_UTF8 * 2;
      if (logical !== undefined) footer[logical] = LOGICAL_STRING_HEADER;
      patched.push(name);
    }
    return true;
  });
  return patched;
}

/** Just enough of Thrift's compact protocol to walk a struct and skip what it does not need. */
class CompactReader {
  pos = 0;

  constructor(private readonly bytes: Buffer) {}

  varint(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = this.bytes[this.pos++];
      if (byte === undefined) throw new Error('warehouse: a truncated Parquet footer');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  }

  binary(): Buffer {
    const length = this.varint();
    const value = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return value;
  }

  listHeader(): { size: number; type: number } {
    const byte = this.bytes[this.pos++]!;
    const size = byte >> 4 === 15 ? this.varint() : byte >> 4;
    return { size, type: byte & 0x0f };
  }

  /** Walks a struct's fields: `field` reads one (returning true) or declines it (false: skipped). */
  struct(field: (id: number, type: number) => boolean): void {
    let last = 0;
    for (;;) {
      const header = this.bytes[this.pos++];
      if (header === undefined) throw new Error('warehouse: a truncated Parquet footer');
      if (header === 0) return;
      const type = header & 0x0f;
      const delta = header >> 4;
      const id = delta === 0 ? zigzag(this.varint()) : last + delta;
      last = id;
      if (type === T.TRUE || type === T.FALSE) continue;
      if (!field(id, type)) this.skip(type);
    }
  }

  skip(type: number): void {
    switch (type) {
      case T.TRUE:
      case T.FALSE:
      case T.BYTE:
        this.pos += 1;
        return;
      case T.I16:
      case T.I32:
      case T.I64:
        this.varint();
        return;
      case T.DOUBLE:
        this.pos += 8;
        return;
      case T.BINARY:
        this.binary();
        return;
      case T.LIST:
      case T.SET: {
        const { size, type: element } = this.listHeader();
        for (let i = 0; i < size; i++) this.skip(element);
        return;
      }
      case T.MAP: {
        const size = this.varint();
        if (size === 0) return;
        const types = this.bytes[this.pos++]!;
        for (let i = 0; i < size; i++) {
          this.skip(types >> 4);
          this.skip(types & 0x0f);
        }
        return;
      }
      case T.STRUCT:
        this.struct(() => false);
        return;
      default:
        throw new Error(`warehouse: a Parquet footer with an unknown Thrift type ${type}`);
    }
  }
}

function zigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}
