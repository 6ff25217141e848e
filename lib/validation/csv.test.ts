import { describe, expect, it } from 'vitest';
import { csvDelimiter, readCsv } from './csv';

describe('readCsv', () => {
  it('keeps blank lines as records and numbers each record by the line it starts on', () => {
    expect(readCsv('\uFEFFa,b\r\n\r\n"c\r\nd",e\r\nf,g\r\n')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: [''] },
        { line: 3, fields: ['c\nd', 'e'] },
        { line: 5, fields: ['f', 'g'] },
        { line: 6, fields: [''] },
      ],
      quoteError: null,
    });
    expect(readCsv('')).toEqual({ records: [], quoteError: null });
  });

  it('reads with the delimiter given, and guesses one from a sample', () => {
    expect(csvDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(csvDelimiter('a,b\n1,2\n')).toBe(',');
    expect(readCsv('a;"b;c"\n', ';').records[0]).toEqual({ line: 1, fields: ['a', 'b;c'] });
  });

  it('leaves out the record with a quote never closed, and those after it', () => {
    expect(readCsv('a\n"b\nc\n')).toEqual({
      records: [{ line: 1, fields: ['a'] }],
      quoteError: { line: 2, unclosed: true, message: 'Quoted field unterminated' },
    });
  });
});
