// Workbooks written byte by byte for the payout-file tests: a zip whose headers say whatever a test needs, parts
// deflated as they are streamed (a 100 MB cell never held in memory), and the few XML parts a sheet needs.
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export const ALICE = '0x52908400098527886E0F7030069857D2E4169EE7';
export const MB = 1024 * 1024;

export interface Part {
  name: string;
  /** The part's text; deflated unless `stored`. */
  text?: string;
  /** Deflated bytes to write as they are (a bomb too large to hold inflated). */
  deflated?: Buffer;
  stored?: boolean;
  /** The uncompressed size the headers claim, when it should lie. */
  declaredSize?: number;
}

/** A zip archive written byte by byte, so its headers can say whatever a test needs. */
export function zipOf(parts: Part[]): Uint8Array {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = part.text === undefined ? undefined : Buffer.from(part.text);
    const data = part.deflated ?? (part.stored ? raw : raw && deflateRawSync(raw)) ?? Buffer.alloc(0);
    const crc = raw ? crc32(raw) : 0;
    const size = part.declaredSize ?? raw?.length ?? 0;
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(part.stored ? 0 : 8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(part.stored ? 0 : 8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    directory.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const size = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...directory, end]));
}

/** Deflates `head`, `unit` repeated to `bytes` in all, then `tail`, never holding the inflated text. */
export async function deflatedBomb(head: string, unit: string, bytes: number, tail: string): Promise<Buffer> {
  const block = Buffer.from(unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB));
  function* pieces() {
    yield Buffer.from(head);
    for (let written = 0; written < bytes; written += block.length)
      yield block.subarray(0, Math.min(block.length, bytes - written));
    yield Buffer.from(tail);
  }
  return buffer(Readable.from(pieces()).pipe(createDeflateRaw({ level: 9 })));
}

export const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const WORKBOOK: Part = {
  name: 'xl/workbook.xml',
  text: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${RELATIONS}"><sheets><sheet name="Payouts" sheetId="1" r:id="rId1"/></sheets></workbook>`,
};
export const WORKBOOK_RELATIONS: Part = {
  name: 'xl/_rels/workbook.xml.rels',
  text: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
};
export const SHARED_STRINGS_HEAD = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}"><si><t>`;
export const SHARED_STRINGS_TAIL = '</t></si></sst>';
export const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';

export const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
/** A header and one payment whose label is shared string 0. */
export const PAYMENT_ROWS = `<row r="1">${inline('A1', 'address')}${inline('B1', 'amount')}${inline('C1', 'asset')}${inline('D1', 'label')}</row><row r="2">${inline('A2', ALICE)}<c r="B2"><v>1.5</v></c>${inline('C2', 'USDC')}<c r="D2" t="s"><v>0</v></c></row>`;

/** A workbook of the given sheet rows (XML) and parts besides the workbook's own two. */
export const workbookOf = (rows: string, ...parts: Part[]) =>
  zipOf([
    WORKBOOK,
    WORKBOOK_RELATIONS,
    { name: 'xl/worksheets/sheet1.xml', text: SHEET_HEAD + rows + SHEET_TAIL },
    ...parts,
  ]);

export const sharedStrings = (text: string): Part => ({
  name: 'xl/sharedStrings.xml',
  text: SHARED_STRINGS_HEAD + text + SHARED_STRINGS_TAIL,
});

/** A workbook of one payment whose label is one 100 MB cell, in a file of about 100 KB. */
export async function oneCellBombWorkbook(): Promise<Uint8Array> {
  const deflated = await deflatedBomb(SHARED_STRINGS_HEAD, 'A', 100 * MB, SHARED_STRINGS_TAIL);
  return workbookOf(PAYMENT_ROWS, { name: 'xl/sharedStrings.xml', deflated, declaredSize: 100 * MB });
}
