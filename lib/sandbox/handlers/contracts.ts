import 'server-only';
// Contracts: #16 write, #17 write and sign only (both with the two-factor code), #18 read, #19 network fee;
// extensions: write from the master wallet, read and network fee from a child address (Blockradar documents them).
import {
  type AbiFunction,
  decodeFunctionResult,
  encodeFunctionData,
  formatUnits,
  getAddress,
  type Hex,
} from 'viem';
import { z } from 'zod';
import { contractCallsBodyInput, schemas } from '@/lib/custody/schemas';
import { type AssetRow, HttpError, invalid, type WalletRow } from '../context';
import { ARRIVAL_SECONDS_PER_OPERATION, GAS, type Holder, type SandboxCore } from '../core';
import { ContractRevertError, ERC20_WRITE_METHODS, executeErc20 } from '../erc20';
import { verifyTotp } from '../keys';
import { usdValue } from '../money';
import * as req from '../requests';
import { endpoint, type Result } from './endpoint';
import { addressOf, batchBounds, checkAddress, newReference, shortMessage } from './shared';

/** JSON numbers and strings in, the ABI's types out: integers as bigint, booleans from "true"/"false". */
export function coerceArg(type: string, value: unknown): unknown {
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) throw new Error(`expected an array for ${type}`);
    const inner = type.slice(0, type.lastIndexOf('['));
    return value.map((v) => coerceArg(inner, v));
  }
  if (/^u?int\d*$/.test(type)) {
    if (typeof value === 'bigint') return value;
    if ((typeof value === 'string' && /^-?\d+$/.test(value.trim())) || Number.isSafeInteger(value)) {
      return BigInt(String(value).trim());
    }
    throw new Error(`expected an integer for ${type}, got ${JSON.stringify(value)}`);
  }
  if (type === 'bool') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value;
  }
  return value;
}

export function stringifyResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

function serializeCall(call: req.CallItem): string {
  return JSON.stringify({ address: call.address, method: call.method, parameters: call.parameters ?? [] });
}

function requireCode(core: SandboxCore, code: string | undefined) {
  if (!code) throw new HttpError(403, 'Two-factor code is required for this operation');
  if (!verifyTotp(core.totpSecret, code, core.nowMs())) throw new HttpError(403, 'Invalid two-factor code');
}

function prepare(core: SandboxCore, wallet: WalletRow, call: req.CallItem) {
  const contract = checkAddress(call.address, 'contract address');
  const params = call.parameters ?? [];
  const candidates = call.abi.filter(
    (e): e is AbiFunction => e.type === 'function' && e.name === call.method,
  );
  if (candidates.length === 0) throw invalid(`Method ${call.method} is not in the ABI`);
  const fn = candidates.find((f) => f.inputs.length === params.length);
  if (!fn)
    throw invalid(
      `Method ${call.method} takes ${candidates[0]!.inputs.length} parameters, ${params.length} given`,
    );
  let data: Hex;
  try {
    const args = fn.inputs.map((input, i) => coerceArg(input.type, params[i]));
    data = encodeFunctionData({ abi: [fn], functionName: fn.name, args });
  } catch (error) {
    throw invalid(`Invalid parameters for ${call.method}: ${shortMessage(error)}`);
  }
  const chain = core.catalog.blockchainOf(wallet);
  const token = core.catalog.tokenAt(chain.id, contract);
  return { contract, fn, data, token, chain };
}

function tokenInfo(token: AssetRow) {
  return {
    address: getAddress(token.address),
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
  };
}

async function runBatch<T>(
  calls: req.CallItem[],
  run: (call: req.CallItem, index: number) => Promise<T>,
): Promise<{ success: T[]; errors: Array<{ index: number; method: string; message: string }> }> {
  const success: T[] = [];
  const errors: Array<{ index: number; method: string; message: string }> = [];
  // Spec batch rules 1 and 2: in order, and one failure does not stop the rest.
  for (const [index, call] of calls.entries()) {
    try {
      success.push(await run(call, index));
    } catch (error) {
      if (!(error instanceof HttpError || error instanceof ContractRevertError)) throw error;
      errors.push({ index, method: call.method, message: error.message });
    }
  }
  return { success, errors };
}

function noContract(contract: string, chainName: string) {
  return invalid(`No contract is deployed at ${contract} on ${chainName} in the sandbox`);
}

function gasForMethod(fn: AbiFunction): bigint {
  if (fn.name === 'transfer') return GAS.tokenTransfer;
  if (fn.name === 'approve') return GAS.approve;
  if (fn.name === 'transferFrom') return GAS.transferFrom;
  if (fn.stateMutability === 'view' || fn.stateMutability === 'pure') return GAS.contractRead;
  return GAS.contractCall;
}

export const contractEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/write',
    summary: '#16 Contract write (two-factor code required)',
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.transaction, schemas.contractWriteBatch]) },
    movesMoney: true,
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return writeCalls(core, core.childHolder(wallet, child), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/contracts/write',
    summary: "Extension: contract write from the master wallet (#16's master form, two-factor code required)",
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.transaction, schemas.contractWriteBatch]) },
    movesMoney: true,
    handle({ core }, { wallet, body }) {
      return writeCalls(core, core.masterHolder(wallet), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/write/sign',
    summary: '#17 Contract write, sign only (two-factor code required)',
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.contractSignedTransaction, schemas.contractSignBatch]) },
    movesMoney: true,
    async handle({ core }, { wallet, params, body }) {
      batchBounds(body.calls, 'calls');
      requireCode(core, body.code);
      const child = addressOf(core, wallet, params.addressId);
      const holder = core.childHolder(wallet, child);
      core.account(holder);
      const sign = async (call: req.CallItem) => {
        const { contract, fn, data } = prepare(core, wallet, call);
        const signed = await core.signRaw(core.db, holder, {
          to: contract,
          data,
          gas: gasForMethod(fn),
        });
        const txBody = core.newBody(wallet, undefined, undefined);
        Object.assign(txBody, {
          confirmed: true,
          signedTransaction: signed.serialized,
          reason: serializeCall(call),
        });
        const row = await core.insertTransaction(core.db, {
          walletId: wallet.id,
          addressId: child.id,
          reference: call.reference || newReference(),
          hash: signed.hash,
          type: 'SIGNED',
          status: 'SUCCESS',
          assetId: null,
          amount: null,
          senderAddress: holder.address,
          recipientAddress: contract,
          confirmations: 0,
          body: txBody,
          plan: null,
        });
        await core.queueWebhook(core.db, row, 'signed.success');
        return { row, signed: signed.serialized };
      };
      if (body.calls.length === 1) {
        const { row } = await sign(body.calls[0]!);
        return { data: core.serialize(row), message: 'Contract write signed successfully' };
      }
      const { success, errors } = await runBatch(body.calls, async (call, index) => {
        const { signed } = await sign(call);
        return { index, method: call.method, signedTransaction: signed };
      });
      return { data: { success, errors }, message: 'Batch contract write signed successfully' };
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/contracts/read',
    summary: '#18 Contract read',
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.contractReadSingle, schemas.contractReadBatch]) },
    handle({ core }, { wallet, body }) {
      return readCalls(core, core.masterHolder(wallet), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/read',
    summary: "Extension: contract read from a child address (#18's child form)",
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.contractReadSingle, schemas.contractReadBatch]) },
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return readCalls(core, core.childHolder(wallet, child), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/contracts/network-fee',
    summary: '#19 Contract network fee',
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.contractNetworkFeeSingle, schemas.contractNetworkFeeBatch]) },
    handle({ core }, { wallet, body }) {
      return estimateCalls(core, core.masterHolder(wallet), body);
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/contracts/network-fee',
    summary: "Extension: contract network fee from a child address (#19's child form)",
    body: req.callsBody,
    documentedBody: contractCallsBodyInput,
    response: { data: z.union([schemas.contractNetworkFeeSingle, schemas.contractNetworkFeeBatch]) },
    handle({ core }, { wallet, params, body }) {
      const child = addressOf(core, wallet, params.addressId);
      return estimateCalls(core, core.childHolder(wallet, child), body);
    },
  }),
];

/** #16 and its master form: each call simulated, then sent from the holder and settled by the chain. */
async function writeCalls(core: SandboxCore, holder: Holder, body: req.CallsBody): Promise<Result> {
  batchBounds(body.calls, 'calls');
  requireCode(core, body.code);
  const { wallet } = holder;
  core.account(holder);
  const write = async (call: req.CallItem) => {
    const { contract, fn, data, token, chain } = prepare(core, wallet, call);
    if (!token) throw noContract(contract, chain.name);
    // Simulated first, as a wallet would, so a call that cannot succeed is refused now.
    const outcome = await executeErc20(
      tokenInfo(token),
      core.tokenLedger(core.db, token),
      holder.address,
      data,
      { dryRun: true },
    ).catch((error) => {
      if (error instanceof ContractRevertError) throw invalid(`Execution reverted: ${error.message}`);
      throw error;
    });
    if (!ERC20_WRITE_METHODS.has(outcome.method)) {
      throw invalid(`Method ${call.method} does not change state; use contracts/read`);
    }
    const txBody = core.newBody(wallet, undefined, undefined);
    txBody.metadata = call.metadata ?? null;
    txBody.tokenAddress = token.address;
    txBody.reason = serializeCall(call);
    return core.insertTransaction(core.db, {
      walletId: wallet.id,
      addressId: holder.child?.id ?? null,
      reference: call.reference || newReference(),
      type: 'CUSTOM_SMART_CONTRACT',
      status: 'PENDING',
      assetId: null,
      amount: null,
      senderAddress: holder.address,
      recipientAddress: contract,
      confirmations: 0,
      body: txBody,
      plan: {
        kind: 'contract',
        from: holder.address,
        contract,
        data,
        gasUsed: gasForMethod(fn).toString(),
      },
    });
  };
  if (body.calls.length === 1) {
    const row = await write(body.calls[0]!);
    return { data: core.serialize(row), message: 'Contract write initiated successfully' };
  }
  const { success, errors } = await runBatch(body.calls, async (call) => {
    const row = await write(call);
    return { id: row.id, hash: row.hash, status: row.status, reference: row.reference };
  });
  return { data: { success, errors }, message: 'Batch contract write initiated successfully' };
}

/** #18 and its child form: a call made from the holder's address (what `msg.sender`-dependent views see). */
async function readCalls(core: SandboxCore, holder: Holder, body: req.CallsBody): Promise<Result> {
  batchBounds(body.calls, 'calls');
  const { wallet } = holder;
  const read = async (call: req.CallItem) => {
    const { contract, fn, data, token, chain } = prepare(core, wallet, call);
    if (!token) throw noContract(contract, chain.name);
    const outcome = await executeErc20(
      tokenInfo(token),
      core.tokenLedger(core.db, token),
      holder.address,
      data,
      { dryRun: true },
    );
    const value = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: outcome.returnData });
    return stringifyResult(value);
  };
  if (body.calls.length === 1) {
    try {
      return { data: await read(body.calls[0]!), message: 'Contract read successfully' };
    } catch (error) {
      if (error instanceof ContractRevertError) throw invalid(error.message);
      throw error;
    }
  }
  const { success, errors } = await runBatch(body.calls, async (call, index) => ({
    index,
    method: call.method,
    data: await read(call),
  }));
  return {
    data: { success, errors },
    message: `Batch contract read completed (${success.length}/${body.calls.length} successful)`,
  };
}

/** #19 and its child form: the fee of each call, against the native balance of the holder, which pays it. */
async function estimateCalls(core: SandboxCore, holder: Holder, body: req.CallsBody): Promise<Result> {
  batchBounds(body.calls, 'calls');
  const { wallet, chain } = holder;
  const native = core.catalog.nativeAsset(chain.id);
  const balance = await core.balance(core.db, native.id, holder.address);
  const balanceText = formatUnits(balance, native.decimals);
  const balanceUsd = usdValue(balance, native.decimals, native.usdPrice);
  const estimate = async (call: req.CallItem) => {
    const { contract, fn, data, token } = prepare(core, wallet, call);
    if (!token) throw noContract(contract, chain.name);
    // Like eth_estimateGas: the selector must be one the contract answers.
    await executeErc20(tokenInfo(token), core.tokenLedger(core.db, token), holder.address, data, {
      dryRun: true,
    }).catch((error) => {
      if (error instanceof ContractRevertError && error.message.includes('does not implement')) throw error;
    });
    return core.feeFor(chain, gasForMethod(fn));
  };
  if (body.calls.length === 1) {
    try {
      const fee = await estimate(body.calls[0]!);
      return {
        data: { balance: balanceText, fee: formatUnits(fee, native.decimals) },
        message: 'Network fee retrieved successfully',
      };
    } catch (error) {
      if (error instanceof ContractRevertError) throw invalid(error.message);
      throw error;
    }
  }
  let total = 0n;
  const { success, errors } = await runBatch(body.calls, async (call, index) => {
    const fee = await estimate(call);
    total += fee;
    const text = formatUnits(fee, native.decimals);
    return {
      index,
      method: call.method,
      fee: text,
      networkFee: text,
      networkFeeInUSD: usdValue(fee, native.decimals, native.usdPrice),
      nativeBalance: balanceText,
      nativeBalanceInUSD: balanceUsd,
      estimatedArrivalTime: ARRIVAL_SECONDS_PER_OPERATION,
      transactionFee: '0',
    };
  });
  return {
    data: {
      fees: success,
      totalFee: formatUnits(total, native.decimals),
      estimatedArrivalTime: success.length * ARRIVAL_SECONDS_PER_OPERATION,
      errors,
    },
    message: `Batch network fee retrieved (${success.length}/${body.calls.length} successful)`,
  };
}
