import { maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  buildPermit,
  buildTransferWithAuthorization,
  checkTypedData,
  describeTypedData,
  inferPrimaryType,
  PERMIT_TYPES,
  parseTypedDataText,
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
