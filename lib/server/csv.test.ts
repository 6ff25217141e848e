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
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('-A1')).toBe("'-A1");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('\t=cmd')).toBe("'\t=cmd");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('does not touch a value that only contains those characters later', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
  });

  it('keeps negative numbers as numbers, also when they are written as text', () => {
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('-24150.56')).toBe('-24150.56');
    expect(csvCell('-2')).toBe('-2');
    expect(csvCell('-0.000000000000000001')).toBe('-0.000000000000000001');
    expect(csvRow(['USDC', '100.00', '-24150.56'])).toBe('USDC,100.00,-24150.56\r\n');
  });

  it('still guards text that only starts like a number', () => {
    expect(csvCell('-1-1')).toBe("'-1-1");
    expect(csvCell('-1.5e3')).toBe("'-1.5e3");
    expect(csvCell('-1.')).toBe("'-1.");
    expect(csvCell('-')).toBe("'-");
    expect(csvCell('-12\n=cmd')).toBe(`"'-12\n=cmd"`);
    expect(csvCell('+5')).toBe("'+5");
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
