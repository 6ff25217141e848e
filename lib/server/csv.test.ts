import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv';

describe('csvCell', () => {
  it('leaves plain values alone', () => {
    expect(csvCell('USDC')).toBe('USDC');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks, doubling inner quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises formulas (CSV injection) with a leading single quote', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+31 6 1234')).toBe("'+31 6 1234");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('\t=cmd')).toBe("'\t=cmd");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('does not touch a value that only contains those characters later', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('keeps negative numbers as numbers', () => {
    expect(csvCell(-2)).toBe('-2');
  });

  it('writes objects as JSON', () => {
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe('csvRow', () => {
  it('joins cells and ends with CRLF', () => {
    expect(csvRow(['id', 'a,b', null, '=x'])).toBe(`id,"a,b",,'=x\r\n`);
  });
});
