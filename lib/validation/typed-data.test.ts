import { maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  buildPermit,
  buildTransferWithAuthorization,
  checkTypedData,
  describeTypedData,
  inferPrimaryType,
  MAX_TYPED_DATA_ARRAY_ITEMS,
  MAX_TYPED_DATA_BYTES,
  MAX_TYPED_DATA_CHARS,
  MAX_TYPED_DATA_DEPTH,
  MAX_TYPED_DATA_FIELDS,
  MAX_TYPED_DATA_STRING_CHARS,
  MAX_TYPED_DATA_TYPES,
  PERMIT_TYPES,
  parseTypedDataText,
  signerProblem,
  viemTypedData,
} from './typed-data';

const owner = privateKeyToAccount(`0x${'11'.repeat(32)}`);
const spender = '0x2222222222222222222222222222222222222222';
const usdc = '0x3333333333333333333333333333333333333333';
const now = new Date('2026-01-01T00:00:00Z');
const inDays = (days: number) => String(Math.floor(now.getTime() / 1000) + days * 86400);

const permitForm = {
  name: 'USD Coin',
  version: '2',
  chainId: '11155111',
  verifyingContract: usdc,
  decimals: 6,
  owner: owner.address,
  spender,
  value: '12.5',
  nonce: '0',
  deadline: inDays(7),
};

describe('buildPermit', () => {
  it('builds an EIP-2612 permit with the value in base units', () => {
    const built = buildPermit(permitForm);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.primaryType).toBe('Permit');
    expect(built.value.message.value).toBe('12500000');
    expect(built.value.domain.chainId).toBe(11155111);
    expect(built.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('accepts "max" as the unlimited value', () => {
    const built = buildPermit({ ...permitForm, value: 'max' });
    expect(built.ok && built.value.message.value).toBe(maxUint256.toString());
  });

  it('names each bad field', () => {
    const built = buildPermit({
      ...permitForm,
      spender: '0x123',
      value: '1.1234567',
      deadline: 'tomorrow',
      chainId: '-1',
      verifyingContract: 'usdc',
    });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(Object.keys(built.fieldErrors).sort()).toEqual(
      ['chainId', 'deadline', 'spender', 'value', 'verifyingContract'].sort(),
    );
    expect(built.fieldErrors.value).toMatch(/6 decimals/);
  });
});

describe('buildTransferWithAuthorization', () => {
  const form = {
    ...permitForm,
    from: owner.address,
    to: spender,
    validAfter: '0',
    validBefore: inDays(1),
    nonce: `0x${'ab'.repeat(32)}`,
  };
  it('builds an EIP-3009 authorization', () => {
    const built = buildTransferWithAuthorization(form);
    expect(built.ok && built.value.primaryType).toBe('TransferWithAuthorization');
  });
  it('refuses a short nonce and a window that closes before it opens', () => {
    const built = buildTransferWithAuthorization({
      ...form,
      nonce: '0x01',
      validAfter: '100',
      validBefore: '50',
    });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.fieldErrors.nonce).toMatch(/32 bytes/);
    expect(built.fieldErrors.validBefore).toMatch(/later/);
  });
});

describe('checkTypedData: types and message agree', () => {
  const domain = { name: 'Mail', version: '1', chainId: 1, verifyingContract: usdc };
  const types = {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint8' },
      { name: 'tag', type: 'bytes4' },
      { name: 'urgent', type: 'bool' },
    ],
  };
  const message = {
    from: { name: 'Cow', wallet: owner.address },
    to: [{ name: 'Bob', wallet: spender }],
    contents: 'Hello',
    amount: 200,
    tag: '0x01020304',
    urgent: false,
  };

  it('accepts nested structs and arrays, infers the primary type and stores integers as strings', () => {
    const check = checkTypedData({ domain, types, message });
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.value.primaryType).toBe('Mail');
    expect(check.value.message.amount).toBe('200');
  });

  it('ignores EIP712Domain in the types (viem derives it from the domain)', () => {
    const check = checkTypedData({
      domain,
      types: { ...types, EIP712Domain: [{ name: 'name', type: 'string' }] },
      message,
    });
    expect(check.ok).toBe(true);
  });

  it.each([
    ['a missing field', { ...message, contents: undefined }, /contents is missing/],
    ['a field not in the type', { ...message, extra: 1 }, /extra is not in the type/],
    ['an integer out of range', { ...message, amount: 256 }, /out of range for uint8/],
    ['a negative unsigned integer', { ...message, amount: '-1' }, /whole number/],
    [
      'a bad nested address',
      { ...message, from: { name: 'Cow', wallet: '0xabc' } },
      /from\.wallet must be an address/,
    ],
    ['wrong bytes length', { ...message, tag: '0x0102' }, /exactly 4 bytes/],
    ['a string for a bool', { ...message, urgent: 'no' }, /true or false/],
    ['an object for an array', { ...message, to: { name: 'Bob', wallet: spender } }, /must be an array/],
  ])('refuses %s', (_what, bad, pattern) => {
    const check = checkTypedData({ domain, types, message: bad });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.fieldErrors.message).toMatch(pattern);
  });

  it('refuses undefined types, two root types and a bad domain', () => {
    const undefinedType = checkTypedData({
      domain,
      types: { Mail: [{ name: 'from', type: 'Human' }] },
      message: {},
    });
    expect(!undefinedType.ok && undefinedType.fieldErrors.types).toMatch(/Human/);
    const twoRoots = checkTypedData({
      domain,
      types: { A: [{ name: 'x', type: 'uint256' }], B: [{ name: 'y', type: 'uint256' }] },
      message: { x: '1' },
    });
    expect(!twoRoots.ok && twoRoots.fieldErrors.types).toMatch(/primary type/);
    const badDomain = checkTypedData({ domain: { ...domain, chainId: '1', salt: '0x00' }, types, message });
    expect(!badDomain.ok && badDomain.fieldErrors.domain).toMatch(/chainId.*salt/s);
  });

  it('hashes what viem signs: the signature recovers to the signer', async () => {
    const check = checkTypedData({ domain, types, message });
    if (!check.ok) throw new Error(check.error);
    // biome-ignore lint/suspicious/noExplicitAny: test data of a caller-defined type.
    const typed = viemTypedData(check.value) as any;
    const signature = await owner.signTypedData(typed);
    const { recoverTypedDataAddress } = await import('viem');
    expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(owner.address);
  });
});

describe('checkTypedData: limits', () => {
  const domain = { name: 'Limits', version: '1', chainId: 1, verifyingContract: usdc };
  const refusal = (check: ReturnType<typeof checkTypedData>, field: 'domain' | 'types' | 'message') => {
    expect(check.ok).toBe(false);
    return check.ok ? '' : (check.fieldErrors[field] ?? '');
  };

  const wide = (fields: number) => ({
    types: { Wide: Array.from({ length: fields }, (_, i) => ({ name: `f${i}`, type: 'uint8' })) },
    message: Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, 1])),
  });
  it(`takes a type of ${MAX_TYPED_DATA_FIELDS} fields and refuses one of 65 or 1,000`, () => {
    expect(checkTypedData({ domain, ...wide(MAX_TYPED_DATA_FIELDS) }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, ...wide(65) }), 'types')).toBe(
      'Wide has 65 fields: a type may have at most 64.',
    );
    const thousand = checkTypedData({ domain, ...wide(1000) });
    expect(refusal(thousand, 'types')).toBe('Wide has 1,000 fields: a type may have at most 64.');
    expect(!thousand.ok && thousand.error).toBe('Wide has 1,000 fields: a type may have at most 64.');
  });

  /** A primary type referring to `count - 1` other types, one field each. */
  const many = (count: number) => {
    const types: Record<string, Array<{ name: string; type: string }>> = {
      Root: Array.from({ length: count - 1 }, (_, i) => ({ name: `t${i}`, type: `T${i}` })),
    };
    for (let i = 0; i < count - 1; i++) types[`T${i}`] = [{ name: 'x', type: 'uint8' }];
    const message = Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [`t${i}`, { x: 1 }]));
    return { types, message };
  };
  it(`takes ${MAX_TYPED_DATA_TYPES} types and refuses 33`, () => {
    expect(checkTypedData({ domain, ...many(MAX_TYPED_DATA_TYPES) }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, ...many(33) }), 'types')).toBe(
      'Define at most 32 types (this document has 33).',
    );
  });

  /** `levels` struct types each holding the next: the primary type is the first level. */
  const nested = (levels: number) => {
    const types: Record<string, Array<{ name: string; type: string }>> = {};
    for (let i = 0; i < levels; i++)
      types[`L${i}`] = i === levels - 1 ? [{ name: 'x', type: 'uint8' }] : [{ name: 'n', type: `L${i + 1}` }];
    let message: Record<string, unknown> = { x: 1 };
    for (let i = 1; i < levels; i++) message = { n: message };
    return { types, message };
  };
  it(`takes structs nested ${MAX_TYPED_DATA_DEPTH} levels deep and refuses 9`, () => {
    expect(checkTypedData({ domain, ...nested(MAX_TYPED_DATA_DEPTH) }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, ...nested(9) }), 'message')).toBe(
      'n.n.n.n.n.n.n.n is a struct nested 9 levels deep: struct types may nest at most 8 levels.',
    );
  });

  it('counts the depth in the message: a recursive type is taken while shallow, refused when deep', () => {
    const types = {
      Tree: [{ name: 'root', type: 'Node' }],
      Node: [
        { name: 'value', type: 'uint8' },
        { name: 'children', type: 'Node[]' },
      ],
    };
    const chain = (levels: number): Record<string, unknown> =>
      levels === 1 ? { value: 1, children: [] } : { value: 1, children: [chain(levels - 1)] };
    expect(checkTypedData({ domain, types, message: { root: chain(2) } }).ok).toBe(true);
    expect(checkTypedData({ domain, types, message: { root: chain(7) } }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, types, message: { root: chain(8) } }), 'message')).toMatch(
      /^root(\.children\[0\]){7} is a struct nested 9 levels deep: struct types may nest at most 8 levels\.$/,
    );
  });

  const list = { List: [{ name: 'items', type: 'uint8[]' }] };
  const items = (n: number) => ({ items: Array.from({ length: n }, () => 1) });
  it(`takes an array of ${MAX_TYPED_DATA_ARRAY_ITEMS} items and refuses 257, declared or sent`, () => {
    expect(checkTypedData({ domain, types: list, message: items(MAX_TYPED_DATA_ARRAY_ITEMS) }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, types: list, message: items(257) }), 'message')).toBe(
      'items has 257 items: an array may have at most 256.',
    );
    expect(
      checkTypedData({
        domain,
        types: { List: [{ name: 'items', type: 'uint8[256]' }] },
        message: items(256),
      }).ok,
    ).toBe(true);
    expect(
      refusal(
        checkTypedData({ domain, types: { List: [{ name: 'items', type: 'uint8[2][1000]' }] }, message: {} }),
        'types',
      ),
    ).toBe('List.items declares 1,000 items (uint8[2][1000]): an array may have at most 256.');
  });

  const text = { Note: [{ name: 'text', type: 'string' }] };
  it(`takes a string of ${MAX_TYPED_DATA_STRING_CHARS} characters and refuses 1,001`, () => {
    const at = 'x'.repeat(MAX_TYPED_DATA_STRING_CHARS);
    expect(checkTypedData({ domain, types: text, message: { text: at } }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, types: text, message: { text: `${at}x` } }), 'message')).toBe(
      'text is 1,001 characters long: a string may have at most 1,000.',
    );
  });

  const blob = { Blob: [{ name: 'data', type: 'bytes' }] };
  it(`takes ${MAX_TYPED_DATA_BYTES} bytes and refuses 4,097`, () => {
    const at = `0x${'ab'.repeat(MAX_TYPED_DATA_BYTES)}`;
    expect(checkTypedData({ domain, types: blob, message: { data: at } }).ok).toBe(true);
    expect(refusal(checkTypedData({ domain, types: blob, message: { data: `${at}cd` } }), 'message')).toBe(
      'data is 4,097 bytes long: bytes may have at most 4,096.',
    );
  });

  /** Strings of at most 1,000 characters whose message is exactly `length` characters of compact JSON. */
  const sized = (length: number) => {
    const fields = Math.ceil(length / 1000) + 1;
    const message: Record<string, string> = {};
    for (let i = 0; i < fields; i++) message[`s${i}`] = '';
    let missing = length - JSON.stringify(message).length;
    for (let i = 0; i < fields && missing > 0; i++) {
      const add = Math.min(MAX_TYPED_DATA_STRING_CHARS, missing);
      message[`s${i}`] = 'x'.repeat(add);
      missing -= add;
    }
    const types = { Big: Object.keys(message).map((name) => ({ name, type: 'string' })) };
    return { types, message };
  };
  it(`takes a message of ${MAX_TYPED_DATA_CHARS} characters and refuses one more`, () => {
    const at = sized(MAX_TYPED_DATA_CHARS);
    expect(JSON.stringify(at.message)).toHaveLength(MAX_TYPED_DATA_CHARS);
    expect(checkTypedData({ domain, ...at }).ok).toBe(true);
    const over = sized(MAX_TYPED_DATA_CHARS + 1);
    expect(refusal(checkTypedData({ domain, ...over }), 'message')).toBe(
      'The message may have at most 20,000 characters (written as compact JSON).',
    );
  });

  it('refuses oversized types and domain by the same measure, before reading them', () => {
    const long = 'x'.repeat(MAX_TYPED_DATA_CHARS);
    expect(
      refusal(checkTypedData({ domain: { ...domain, name: long }, types: text, message: {} }), 'domain'),
    ).toBe('The domain may have at most 20,000 characters (written as compact JSON).');
    expect(refusal(checkTypedData({ domain, types: { [long]: [] }, message: {} }), 'types')).toBe(
      'The types may have at most 20,000 characters (written as compact JSON).',
    );
  });

  it('refuses the editor text twice the limit without parsing it, and compact text within it once parsed', () => {
    const ok = { domain: JSON.stringify(domain), types: JSON.stringify(text) };
    const spaced = JSON.stringify({ text: 'x' }).replace(':', `:${' '.repeat(2 * MAX_TYPED_DATA_CHARS)}`);
    const unread = parseTypedDataText({ ...ok, message: spaced });
    expect(!unread.ok && unread.fieldErrors.message).toBe(
      'The message may have at most 20,000 characters (written as compact JSON).',
    );
    // Pretty-printed text over the limit whose compact form is within it is taken.
    const pretty = JSON.stringify({ text: 'x' }).replace(':', `:${' '.repeat(MAX_TYPED_DATA_CHARS)}`);
    expect(parseTypedDataText({ ...ok, message: pretty }).ok).toBe(true);
    const wideText = parseTypedDataText({
      domain: ok.domain,
      types: JSON.stringify(wide(1000).types),
      message: JSON.stringify(wide(1000).message),
    });
    expect(!wideText.ok && wideText.fieldErrors.types).toBe(
      'Wide has 1,000 fields: a type may have at most 64.',
    );
  });
});

describe("checkTypedData: a permit or authorization is the signing address's own", () => {
  const other = privateKeyToAccount(`0x${'22'.repeat(32)}`).address;
  const permit = () => {
    const built = buildPermit(permitForm);
    if (!built.ok) throw new Error(built.error);
    return built.value;
  };
  const withOwner = (owner: string) => ({ ...permit(), message: { ...permit().message, owner } });

  it('takes a permit whose owner is the signer, written checksummed or in lower case', () => {
    expect(checkTypedData(withOwner(owner.address), { signer: owner.address }).ok).toBe(true);
    expect(checkTypedData(withOwner(owner.address.toLowerCase()), { signer: owner.address }).ok).toBe(true);
    expect(checkTypedData(withOwner(owner.address), { signer: owner.address.toLowerCase() }).ok).toBe(true);
  });

  it('refuses a permit whose owner is another address, at the message, naming both', () => {
    const sentence = `The permit's owner ${other} is not the address that signs it (${owner.address}).`;
    const check = checkTypedData(withOwner(other.toLowerCase()), { signer: owner.address.toLowerCase() });
    expect(check).toEqual({ ok: false, error: sentence, fieldErrors: { message: sentence } });
    expect(signerProblem(withOwner(other), owner.address)).toBe(sentence);
    // Without a signing address (none chosen yet) the rule waits.
    expect(checkTypedData(withOwner(other)).ok).toBe(true);
  });

  it("refuses an authorization whose from is another address, and DAI's permit whose holder is", () => {
    const built = buildTransferWithAuthorization({
      ...permitForm,
      from: other,
      to: spender,
      validAfter: '0',
      validBefore: inDays(1),
      nonce: `0x${'ab'.repeat(32)}`,
    });
    if (!built.ok) throw new Error(built.error);
    expect(checkTypedData(built.value, { signer: other }).ok).toBe(true);
    const refused = checkTypedData(built.value, { signer: owner.address });
    expect(!refused.ok && refused.fieldErrors.message).toBe(
      `The authorization's from address ${other} is not the address that signs it (${owner.address}).`,
    );
    const dai = {
      domain: { name: 'Dai', version: '1', chainId: 1, verifyingContract: usdc },
      types: {
        Permit: [
          { name: 'holder', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
          { name: 'allowed', type: 'bool' },
        ],
      },
      message: { holder: other, spender, nonce: '0', expiry: inDays(1), allowed: true },
    };
    expect(checkTypedData(dai, { signer: other }).ok).toBe(true);
    expect(signerProblem({ ...dai, primaryType: 'Permit' }, owner.address)).toBe(
      `The permit's holder ${other} is not the address that signs it (${owner.address}).`,
    );
  });

  it('leaves other typed data alone, even with an address field named owner', () => {
    const vote = checkTypedData(
      {
        domain: { name: 'X', version: '1', chainId: 1, verifyingContract: usdc },
        types: { Ballot: [{ name: 'owner', type: 'address' }] },
        message: { owner: other },
      },
      { signer: owner.address },
    );
    expect(vote.ok).toBe(true);
  });

  it('holds the JSON editor to the rule when given the signing address', () => {
    const doc = withOwner(other);
    const text = {
      domain: JSON.stringify(doc.domain),
      types: JSON.stringify(doc.types),
      message: JSON.stringify(doc.message),
    };
    expect(parseTypedDataText(text).ok).toBe(true);
    const refused = parseTypedDataText(text, { signer: owner.address });
    expect(!refused.ok && refused.fieldErrors.message).toMatch(/^The permit's owner 0x/);
  });
});

describe('parseTypedDataText', () => {
  it('reports invalid JSON per text area', () => {
    const parsed = parseTypedDataText({ domain: '{', types: '[]', message: '' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.fieldErrors.domain).toMatch(/not valid JSON/);
    expect(parsed.fieldErrors.types).toMatch(/JSON object/);
    expect(parsed.fieldErrors.message).toMatch(/Enter the message/);
  });
  it('takes the JSON of a permit', () => {
    const built = buildPermit(permitForm);
    if (!built.ok) throw new Error(built.error);
    const parsed = parseTypedDataText({
      domain: JSON.stringify(built.value.domain),
      types: JSON.stringify(PERMIT_TYPES),
      message: JSON.stringify(built.value.message),
    });
    expect(parsed.ok && parsed.hash).toBe(built.hash);
  });
});

describe('describeTypedData: permit decoding', () => {
  const tokens = [{ address: usdc, symbol: 'USDC', decimals: 6 }];
  const build = (overrides: Partial<typeof permitForm>) => {
    const built = buildPermit({ ...permitForm, ...overrides });
    if (!built.ok) throw new Error(built.error);
    return built.value;
  };

  it('reads a permit in token units with its deadline as a date and no warnings', () => {
    const d = describeTypedData(build({}), { signer: owner.address, tokens, now });
    expect(d.kind).toBe('permit');
    expect(d.token.symbol).toBe('USDC');
    expect(d.value).toEqual({ raw: '12500000', units: '12.5', unlimited: false });
    expect(d.owner).toBe(owner.address);
    expect(d.spender?.toLowerCase()).toBe(spender);
    expect(d.deadline).toBe('2026-01-08T00:00:00.000Z');
    expect(d.warnings).toEqual([]);
  });

  it('warns about an unlimited value and a deadline more than 30 days away', () => {
    const d = describeTypedData(build({ value: 'max', deadline: inDays(31) }), {
      signer: owner.address,
      tokens,
      now,
    });
    expect(d.value?.unlimited).toBe(true);
    expect(d.warnings.join(' ')).toMatch(/Unlimited value/);
    expect(d.warnings.join(' ')).toMatch(/more than 30 days/);
  });

  it('warns when the owner is not the signing address and when the token is unknown', () => {
    const d = describeTypedData(build({}), { signer: spender, tokens: [], now });
    expect(d.value?.units).toBeNull();
    expect(d.warnings.join(' ')).toMatch(/not the signing address/);
    expect(d.warnings.join(' ')).toMatch(/not an asset of this wallet/);
  });

  it('treats other typed data as such', () => {
    const check = checkTypedData({
      domain: { name: 'X', version: '1', chainId: 1, verifyingContract: usdc },
      types: { Vote: [{ name: 'choice', type: 'uint8' }] },
      message: { choice: 1 },
    });
    if (!check.ok) throw new Error(check.error);
    const d = describeTypedData(check.value, { signer: owner.address, tokens, now });
    expect(d.kind).toBe('other');
    expect(d.warnings[0]).toMatch(/Not a permit/);
  });

  it('warns when a permit of another shape names an owner or holder other than the signing address', () => {
    const permitWithExtra = checkTypedData({
      domain: { name: 'X', version: '1', chainId: 1, verifyingContract: usdc },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'memo', type: 'string' },
        ],
      },
      message: { owner: spender, spender, value: '1', nonce: '0', deadline: inDays(1), memo: 'x' },
    });
    if (!permitWithExtra.ok) throw new Error(permitWithExtra.error);
    const foreign = describeTypedData(permitWithExtra.value, { signer: owner.address, tokens, now });
    expect(foreign.warnings.join(' ')).toMatch(/The owner is not the signing address/);
    const own = describeTypedData(
      {
        ...permitWithExtra.value,
        message: { ...permitWithExtra.value.message, owner: owner.address.toLowerCase() },
      },
      { signer: owner.address, tokens, now },
    );
    expect(own.warnings.join(' ')).not.toMatch(/signing address/);

    const dai = checkTypedData({
      domain: { name: 'Dai', version: '1', chainId: 1, verifyingContract: usdc },
      types: {
        Permit: [
          { name: 'holder', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'expiry', type: 'uint256' },
          { name: 'allowed', type: 'bool' },
        ],
      },
      message: { holder: spender, spender, nonce: '0', expiry: inDays(1), allowed: true },
    });
    if (!dai.ok) throw new Error(dai.error);
    expect(describeTypedData(dai.value, { signer: owner.address, tokens, now }).warnings.join(' ')).toMatch(
      /The holder is not the signing address/,
    );
  });

  it('infers the primary type as the one type no other uses', () => {
    expect(inferPrimaryType(PERMIT_TYPES)).toBe('Permit');
  });
});
