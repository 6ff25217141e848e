import 'server-only';
// Unpacking a payout workbook with bounded work. An XLSX file is a zip of XML parts: its central directory is
// walked here and each part read-excel-file reads is inflated by Node's async zlib (on the libuv thread pool, so
// other requests keep being served), its bytes counted as they come out: a decompression bomb stops at the limit
// whatever sizes the zip declares. A part holding sheet data is then scanned with the XML parser read-excel-file
// uses (saxen) and its reading of names and attributes, so a sheet naming row 1,048,576 or a value in column XFD
// (the reader fills every row and column up to the last one) is refused before it is parsed. Only the checked
// parts, stored uncompressed in a new zip, reach read-excel-file: it never reads a byte that was not counted, and
// parsing what is left (at most the unpacked limit) takes the main thread for milliseconds, not minutes.
import { crc32, createInflateRaw } from 'node:zlib';
import { Parser } from 'saxen';
import { type PayoutFileLimits, refusals, XLSX_UNREADABLE } from './file-limits';

export type WorkbookUnpack =
  | { ok: true; zip: Buffer }
  /** `inflatedBytes`: how much was inflated before the refusal (the parts are never inflated in full). */
  | { ok: false; error: string; inflatedBytes: number };

/** A refusal and its sentence, thrown from inside the inflation or the scan to stop both. */
class Refusal extends Error {}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
/** Bytes per inflated chunk: each chunk is one job on the thread pool, and the limits are checked after each. */
const CHUNK = 64 * 1024;
/** The zip flag saying a name is UTF-8, kept so the reader decodes names as the writer meant. */
const UTF8_NAMES = 0x800;

interface Entry {
  name: Buffer;
  flags: number;
  method: number;
  data: Buffer;
}

interface Budget {
  limits: PayoutFileLimits;
  deadline: number;
  inflated: number;
}

/** The parts read-excel-file reads (its own filter); images, printer settings and the like are never inflated. */
function isXmlPart(name: Buffer): boolean {
  const text = name.toString('latin1');
  return text.endsWith('.xml') || text.endsWith('.xml.rels');
}

function endOfDirectory(zip: Buffer): number {
  // The record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--)
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  return -1;
}

/** The XML parts the central directory names, each with its compressed bytes; never more than the limit. */
function xmlParts(zip: Buffer, limits: PayoutFileLimits): Entry[] {
  const unreadable = () => new Refusal(XLSX_UNREADABLE);
  const end = endOfDirectory(zip);
  if (end < 0) throw unreadable();
  const count = zip.readUInt16LE(end + 10);
  const size = zip.readUInt32LE(end + 12);
  const start = zip.readUInt32LE(end + 16);
  // Split and Zip64 archives are for sizes far above a payout workbook's.
  if (zip.readUInt16LE(end + 4) !== 0 || zip.readUInt16LE(end + 6) !== 0 || count === 0xffff)
    throw unreadable();
  if (count > limits.entries) throw new Refusal(refusals.entries(limits));
  if (start + size > end) throw unreadable();
  const parts: Entry[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw unreadable();
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    if (at > end) throw unreadable();
    if (!isXmlPart(name)) continue;
    // Encrypted parts, and methods other than stored and deflate, are not written by spreadsheets.
    if (flags & 1 || (method !== 0 && method !== 8)) throw unreadable();
    if (local + 30 > start || zip.readUInt32LE(local) !== LOCAL_ENTRY) throw unreadable();
    const data = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (data + compressed > start) throw unreadable();
    parts.push({ name, flags, method, data: zip.subarray(data, data + compressed) });
  }
  return parts;
}

/** read-excel-file's reading of a name: the prefix dropped (`x:row` is `row`), `xmlns:` attributes kept whole. */
function localName(name: string, isAttribute = false): string {
  for (let i = 0; i < name.length; i++)
    if (name[i] === ':' && !(isAttribute && i === 5 && name.startsWith('xmlns'))) return name.slice(i + 1);
  return name;
}

/** read-excel-file's reading of a cell address (`AA12` is row 12, column 27); null where it would throw. */
function cellAddress(address: string): [row: number, column: number] | null {
  let column = 0;
  for (let i = 0; i < address.length; i++) {
    const code = address.charCodeAt(i);
    if (code >= 48 && code <= 57) return [Number(address.slice(i)), column];
    column = column * 26 + code - 64;
  }
  return null;
}

/**
 * Scans a part for what would make read-excel-file's work grow past the bytes: the rows it fills up to a far
 * row number (even an empty one) and the columns it fills up to a far cell holding a value (a `v` or `is` in
 * the `c`; styled empty cells cost nothing). Like the reader, it looks at rows and cells once a `sheetData`
 * opened, in any part (whichever the workbook names as its first sheet is covered). False when the part is not
 * well-formed XML: it is then left out (the reader would fail on it too).
 */
function scanSheet(xml: string, limits: PayoutFileLimits): boolean {
  const parser = new Parser();
  let failed = false;
  let sheets = 0;
  let rows = 0;
  /** Whether the cell being read sits past the column limit: refused once it shows a value. */
  let farColumn = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('closeTag', (element) => {
    if (localName(element) === 'c') farColumn = false;
  });
  parser.on('openTag', (element, attributesOf, decode) => {
    const tag = localName(element);
    if (tag === 'sheetData') {
      // Two would let the rows of each add up; spreadsheets write one.
      sheets += 1;
      if (sheets > 1) throw new Refusal(XLSX_UNREADABLE);
      return;
    }
    if (sheets === 0) return;
    if (farColumn && (tag === 'v' || tag === 'is')) throw new Refusal(refusals.columns(limits));
    if (tag !== 'row' && tag !== 'c') return;
    const attributes = attributesOf() || {};
    // As read-excel-file reads them: prefixes dropped and entities decoded, in place and in the same order.
    for (const name in attributes) attributes[localName(name, true)] = decode(attributes[name] ?? '');
    const r = attributes.r;
    if (tag === 'row') {
      rows += 1;
      if (rows > limits.rows || (r && Number(r) > limits.rows)) throw new Refusal(refusals.rows(limits));
      return;
    }
    const address = r ? cellAddress(r) : null;
    if (address && address[0] > limits.rows) throw new Refusal(refusals.rows(limits));
    farColumn = address !== null && address[1] > limits.columns;
  });
  parser.parse(xml);
  return !failed;
}

/**
 * One part inflated within the budget, then scanned if it holds sheet data (a tag's name is never an entity, so a
 * part without the word has none); null when that part is not well-formed XML.
 */
async function inflatePart(entry: Entry, budget: Budget): Promise<Buffer | null> {
  const { limits } = budget;
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer) => {
    size += chunk.length;
    budget.inflated += chunk.length;
    if (size > limits.entryBytes) throw new Refusal(refusals.entry(limits));
    if (budget.inflated > limits.unpackedBytes) throw new Refusal(refusals.unpacked(limits));
    if (Date.now() >= budget.deadline) throw new Refusal(refusals.time(limits));
    chunks.push(chunk);
  };
  if (entry.method === 0) take(entry.data);
  else
    await new Promise<void>((resolve, reject) => {
      const inflate = createInflateRaw({ chunkSize: CHUNK });
      inflate.on('data', (chunk: Buffer) => {
        try {
          take(chunk);
        } catch (error) {
          // Destroying the stream queues no further chunk: the rest of the part is never inflated.
          inflate.destroy();
          reject(error);
        }
      });
      inflate.on('error', () => reject(new Refusal(XLSX_UNREADABLE)));
      inflate.on('end', resolve);
      inflate.end(entry.data);
    });
  const data = Buffer.concat(chunks);
  // Decoded as read-excel-file decodes it (UTF-8, a byte order mark dropped).
  const xml = new TextDecoder().decode(data);
  return !xml.includes('sheetData') || scanSheet(xml, limits) ? data : null;
}

/** A zip of the given parts, stored uncompressed: reading it back costs no more than its size. */
function storedZip(parts: Array<{ name: Buffer; flags: number; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, flags, data } of parts) {
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_ENTRY, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags & UTF8_NAMES, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(DIRECTORY_ENTRY, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(flags & UTF8_NAMES, 8);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    directory.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const size = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_DIRECTORY, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...directory, end]);
}

/**
 * The workbook's XML parts, inflated within the limits and scanned, as a new zip for read-excel-file; or the
 * sentence of the first limit passed. `deadline` (a `Date.now()` value) bounds the time of the whole read.
 */
export async function unpackWorkbook(
  bytes: Uint8Array,
  limits: PayoutFileLimits,
  deadline: number,
): Promise<WorkbookUnpack> {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const budget: Budget = { limits, deadline, inflated: 0 };
  try {
    const parts: Entry[] = [];
    for (const entry of xmlParts(zip, limits)) {
      if (Date.now() >= deadline) throw new Refusal(refusals.time(limits));
      const data = await inflatePart(entry, budget);
      if (data) parts.push({ ...entry, data });
    }
    return { ok: true, zip: storedZip(parts) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, error: error.message, inflatedBytes: budget.inflated };
    throw error;
  }
}
