import { describe, expect, it } from 'vitest';
import { parseCsvRecords } from './csv';
import { parseWithdrawalCsv } from './withdrawal-csv';
import { withdrawalSchemaFor } from './withdrawal-schema';
import { validateWithdrawal, type WithdrawalFormValues, withdrawalLimitErrors } from './withdrawals';

const assets = [
  { id: 'usdc-id', symbol: 'USDC', decimals: 6 },
  { id: 'eth-id', symbol: 'ETH', decimals: 18 },
  { id: 'old-id', symbol: 'OLD', decimals: 6, isActive: false },
];
const chain = { isEvmCompatible: true };
const A = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const B = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

describe('parseWithdrawalCsv', () => {
  it('reads rows with a header, by symbol or id, quoted fields included', () => {
    const text = `address,amount,asset,reference,note\n${A.toLowerCase()},10.5,usdc,inv-1,"rent, March"\n${B},0.01,eth-id,,\n`;
    const { rows, errors } = parseWithdrawalCsv(text, { assets, chain });
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      {
        address: A,
        amount: '10.5',
        assetId: 'usdc-id',
        reference: 'inv-1',
        note: 'rent, March',
        metadata: '',
      },
      { address: B, amount: '0.01', assetId: 'eth-id', reference: '', note: '', metadata: '' },
    ]);
  });

  it('reports bad rows by line and keeps the fixable ones', () => {
    const text = [
      `${A},10,USDC`,
      `${A},1e3,USDC`,
      'not-an-address,1,USDC',
      `${B},1,DOGE`,
      `${B},1,OLD`,
      `${B}`,
      `${B},1,USDC,a,b,c`,
      `${B},1.1234567,USDC`,
    ].join('\r\n');
    const { rows, errors } = parseWithdrawalCsv(text, { assets, chain });
    expect(errors).toEqual([
      { line: 2, message: 'Write the amount in full, without exponent notation (1500, not 1.5e3).' },
      { line: 3, message: 'An EVM address starts with 0x.' },
      { line: 4, message: 'Unknown or inactive asset "DOGE".' },
      { line: 5, message: 'Unknown or inactive asset "OLD".' },
      { line: 6, message: 'Expected 3 to 5 columns (address,amount,asset,reference,note), found 1.' },
      { line: 7, message: 'Expected 3 to 5 columns (address,amount,asset,reference,note), found 6.' },
      { line: 8, message: 'USDC has 6 decimals: use at most 6 digits after the dot.' },
    ]);
    expect(rows).toHaveLength(4);
  });

  it('reads quoted fields (commas, doubled quotes, line breaks) in a CRLF file, each error on its line', () => {
    const text = [
      'address,amount,asset,reference,note',
      `"${A}","1.25",USDC,"inv-9","rent, ""March"""`,
      `${B},2,ETH,,"two`,
      `lines"`,
      `${B},1,"DOGE, maybe"`,
      '',
      `"${B}",3,usdc,ref-3,`,
    ].join('\r\n');
    const { rows, errors } = parseWithdrawalCsv(`${text}\r\n`, { assets, chain });
    expect(errors).toEqual([{ line: 5, message: 'Unknown or inactive asset "DOGE, maybe".' }]);
    expect(rows).toEqual([
      {
        address: A,
        amount: '1.25',
        assetId: 'usdc-id',
        reference: 'inv-9',
        note: 'rent, "March"',
        metadata: '',
      },
      { address: B, amount: '2', assetId: 'eth-id', reference: '', note: 'two\nlines', metadata: '' },
      { address: B, amount: '3', assetId: 'usdc-id', reference: 'ref-3', note: '', metadata: '' },
    ]);
  });

  it('reads old Mac and mixed line breaks as lines, and stops at a quoting mistake on its line', () => {
    const mixed = parseWithdrawalCsv(`${A},1,USDC\r${B},2,USDC\r\n${A},3,ETH\n`, { assets, chain });
    expect(mixed.errors).toEqual([]);
    expect(mixed.rows.map((r) => r.amount)).toEqual(['1', '2', '3']);
    expect(parseCsvRecords(`${A},1,USDC\n\n${A},"2"x,USDC\n${B},3,USDC`)).toEqual({
      records: [{ line: 1, fields: [A, '1', 'USDC'] }],
      errors: [{ line: 3, message: 'A quoted field has more text after its closing quote.' }],
    });
  });

  it('refuses an empty file and an unclosed quote, and caps at 20 rows', () => {
    expect(parseWithdrawalCsv('', { assets, chain }).errors).toEqual([
      { line: 1, message: 'The CSV has no rows.' },
    ]);
    expect(parseCsvRecords('a,"b\n').errors).toEqual([{ line: 1, message: 'A quoted field is not closed.' }]);
    const many = Array.from({ length: 22 }, () => `${A},1,USDC`).join('\n');
    const { rows, errors } = parseWithdrawalCsv(many, { assets, chain });
    expect(rows).toHaveLength(20);
    expect(errors.map((e) => e.line)).toEqual([21, 22]);
  });
});

describe('validateWithdrawal', () => {
  const values = (rows: Partial<WithdrawalFormValues['rows'][number]>[]): WithdrawalFormValues => ({
    walletId: 'w',
    kind: 'withdraw',
    source: 'master',
    rows: rows.map((r) => ({
      address: A,
      amount: '1',
      assetId: 'usdc-id',
      reference: '',
      note: '',
      metadata: '',
      ...r,
    })),
  });

  it('builds the payload with checksummed addresses and canonical amounts', () => {
    const result = validateWithdrawal(
      values([{ address: A.toLowerCase(), amount: '1.50', reference: 'inv-9', metadata: '{"a":1}' }]),
      { assets, chain },
    );
    expect(result).toEqual({
      ok: true,
      duplicates: [],
      payload: {
        source: { kind: 'master' },
        items: [
          {
            assetId: 'usdc-id',
            symbol: 'USDC',
            decimals: 6,
            address: A,
            amount: '1.5',
            reference: 'inv-9',
            metadata: { a: 1 },
          },
        ],
      },
    });
  });

  it('flags duplicates without refusing them', () => {
    const result = validateWithdrawal(values([{}, { address: B }, { address: A.toLowerCase() }]), {
      assets,
      chain,
    });
    expect(result.ok && result.duplicates).toEqual([[0, 2]]);
  });

  it('reports every bad field by row', () => {
    const result = validateWithdrawal(
      values([
        { amount: '0' },
        { assetId: 'old-id' },
        { metadata: '[1]' },
        { reference: 'has space' },
        { metadata: '{' },
      ]),
      { assets, chain },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.fieldErrors).toEqual({
      'rows.0.amount': 'The amount must be greater than 0.',
      'rows.1.assetId': 'This asset is not active on the wallet.',
      'rows.2.metadata': 'Metadata must be a JSON object, e.g. {"invoice": "A-12"}.',
      'rows.3.reference': 'Use up to 64 letters, digits and . _ : / # - for the reference.',
      'rows.4.metadata': 'Metadata must be valid JSON, e.g. {"invoice": "A-12"}.',
    });
  });

  it('signs only from the master wallet', () => {
    const result = validateWithdrawal(
      { ...values([{}]), kind: 'withdrawSign', source: 'child-1' },
      { assets, chain },
    );
    expect(!result.ok && result.fieldErrors.source).toBe(
      'Sign-only withdrawals are signed by the master wallet.',
    );
  });
});

describe('limits known before sending', () => {
  const row = (amount: string, assetId = 'usdc-id') => ({ amount, assetId });
  const balances = { 'usdc-id': '249061.75', 'eth-id': '2' };

  it('refuses an amount above the source balance, naming the balance formatted', () => {
    expect(withdrawalLimitErrors({ rows: [row('9999999')] }, { assets, balances })).toEqual({
      'rows.0.amount': "Above the source's balance of 249,061.75 USDC.",
    });
    expect(withdrawalLimitErrors({ rows: [row('249061.75')] }, { assets, balances })).toEqual({});
  });

  it('adds up the rows of one asset', () => {
    const errors = withdrawalLimitErrors(
      { rows: [row('200000'), row('1', 'eth-id'), row('49061.76')] },
      { assets, balances },
    );
    const message = "The USDC amounts total 249,061.76 USDC, above the source's balance of 249,061.75 USDC.";
    expect(errors).toEqual({ 'rows.0.amount': message, 'rows.2.amount': message });
  });

  it('does not block when the balance is unknown', () => {
    expect(withdrawalLimitErrors({ rows: [row('9999999')] }, { assets, balances: null })).toEqual({});
    expect(withdrawalLimitErrors({ rows: [row('9999999')] }, { assets, balances: {} })).toEqual({});
  });

  it('refuses more decimals than the asset has as it is typed, and more than 20 recipients', () => {
    expect(withdrawalLimitErrors({ rows: [row('1.1234567'), row('')] }, { assets })).toEqual({
      'rows.0.amount': 'USDC has 6 decimals: use at most 6 digits after the dot.',
    });
    expect(withdrawalLimitErrors({ rows: Array.from({ length: 21 }, () => row('1')) }, { assets })).toEqual({
      rows: 'At most 20 recipients per request.',
    });
  });

  it('makes validateWithdrawal refuse an amount above a known balance', () => {
    const values: WithdrawalFormValues = {
      walletId: 'w',
      kind: 'withdraw',
      source: 'master',
      rows: [{ address: A, amount: '9999999', assetId: 'usdc-id', reference: '', note: '', metadata: '' }],
    };
    const refused = validateWithdrawal(values, { assets, chain, balances });
    expect(refused).toEqual({
      ok: false,
      error: 'Fix the highlighted field.',
      fieldErrors: { 'rows.0.amount': "Above the source's balance of 249,061.75 USDC." },
    });
    expect(validateWithdrawal(values, { assets, chain, balances: null }).ok).toBe(true);
  });
});

describe('withdrawalSchemaFor', () => {
  const values = (amount: string): WithdrawalFormValues => ({
    walletId: 'w1',
    kind: 'withdraw',
    source: 'master',
    rows: [{ address: A, amount, assetId: 'usdc-id', reference: '', note: '', metadata: '' }],
  });

  it('puts the meaning checks at their field paths, reading the balances it is given at parse time', () => {
    let balances: Record<string, string> | null = null;
    const schema = withdrawalSchemaFor(() => ({ assets, chain, balances }));
    expect(schema.safeParse(values('5')).success).toBe(true);
    balances = { 'usdc-id': '1' };
    const refused = schema.safeParse(values('5'));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path, i.message])).toEqual([
      [['rows', 0, 'amount'], "Above the source's balance of 1 USDC."],
    ]);
  });

  it('keeps the shape checks of the schema the action parses', () => {
    const schema = withdrawalSchemaFor(() => ({ assets, chain }));
    const refused = schema.safeParse({ ...values('1'), rows: [] });
    expect(refused.error?.issues[0]?.message).toBe('Add at least one recipient.');
  });
});
