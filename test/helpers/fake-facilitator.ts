import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeFunctionData,
  encodeEventTopics,
  encodeFunctionResult,
  getAddress,
  parseAbi,
  parseAbiItem,
  verifyTypedData,
  type Address,
  type Hex,
} from 'viem';
import {
  networkByCaip2,
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  X402_NETWORKS,
  type X402Network,
  type X402NetworkInfo,
} from '../../src/payments/x402/networks.js';

/**
 * A local x402 facilitator speaking the real protocol, versions 1 and 2, on 127.0.0.1, with the token contract it
 * settles on:
 * - `/verify` checks the EIP-3009 signature with viem against the token's EIP-712 domain, the recipient, the amount,
 *   the validity window and the nonce; `/settle` verifies again, "executes" the transfer (marks the nonce used, as
 *   the token contract would) and answers a transaction hash. v1 names the network (`base-sepolia`) and the price
 *   `maxAmountRequired`; v2 a CAIP-2 id (`eip155:84532`) and `amount`, and the payment carries the entry it `accepted`.
 * - `/rpc` is the chain's Ethereum JSON-RPC, for what the service reads of the token contract: `eth_call` of
 *   `authorizationState(authorizer, nonce)`, `eth_blockNumber` and `eth_getLogs` of `AuthorizationUsed` events.
 * Every facilitator call is recorded so tests can assert which ones were made.
 */
export interface FacilitatorCall {
  path: '/verify' | '/settle';
  body: any;
  headers: IncomingMessage['headers'];
}

export interface FakeFacilitator {
  url: string;
  /** The chain's JSON-RPC endpoint (X402_RPC_URL). */
  rpcUrl: string;
  calls: FacilitatorCall[];
  settleCalls(): FacilitatorCall[];
  /** Settled transactions, by hash. */
  settled: Map<string, { from: string; to: string; value: string; nonce: string }>;
  /** Make /settle refuse (as when the payer's balance moved away between verify and settle). */
  failSettle: boolean;
  /** Make /settle execute the transfer and then drop the connection (the answer is lost on the way back). */
  loseSettleAnswer: boolean;
  /** Make /settle drop the connection without executing anything. */
  dropSettle: boolean;
  /** Make the chain's JSON-RPC answer errors. */
  chainDown: boolean;
  /** Executes a transfer directly on the chain (as if someone else had submitted the authorization). */
  execute(from: string, nonce: string): string;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const TOKEN_ABI = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);
const AUTHORIZATION_USED = parseAbiItem('event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)');

export async function startFakeFacilitator(): Promise<FakeFacilitator> {
  /** Used nonces, `payer:nonce` lower-case → the transaction and block that used it. */
  const used = new Map<string, { tx: string; block: bigint; asset: string; payer: Address; nonce: Hex }>();
  let block = 1_000n;
  const useKey = (payer: string, nonce: string) => `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
  const state: FakeFacilitator = {
    url: '',
    rpcUrl: '',
    calls: [],
    settleCalls: () => state.calls.filter((c) => c.path === '/settle'),
    settled: new Map(),
    failSettle: false,
    loseSettleAnswer: false,
    dropSettle: false,
    chainDown: false,
    execute: (from, nonce) => {
      const tx = `0x${randomBytes(32).toString('hex')}`;
      block += 1n;
      used.set(useKey(from, nonce), {
        tx,
        block,
        asset: X402_NETWORKS['base-sepolia'].usdc,
        payer: getAddress(from),
        nonce: nonce as Hex,
      });
      return tx;
    },
    close: async () => {},
  };

  /** The network, price and payment fields of a facilitator request, whichever version it is. */
  function read(body: any): { info: X402NetworkInfo; amount: string; scheme: string; network: string } | undefined {
    const req = body?.paymentRequirements;
    const payment = body?.paymentPayload;
    if (body?.x402Version === 1 && req && payment) {
      const info = X402_NETWORKS[req.network as X402Network];
      if (!info || payment.network !== req.network || payment.scheme !== req.scheme) return undefined;
      return { info, amount: req.maxAmountRequired, scheme: req.scheme, network: req.network };
    }
    if (body?.x402Version === 2 && req && payment?.x402Version === 2) {
      const info = networkByCaip2(req.network);
      const accepted = payment.accepted;
      if (!info || accepted?.network !== req.network || accepted?.scheme !== req.scheme) return undefined;
      if (accepted.amount !== req.amount || getAddress(accepted.payTo) !== getAddress(req.payTo)) return undefined;
      return { info, amount: req.amount, scheme: req.scheme, network: req.network };
    }
    return undefined;
  }

  async function verify(body: any): Promise<{ isValid: boolean; invalidReason?: string; payer?: string }> {
    const payment = body?.paymentPayload;
    const req = body?.paymentRequirements;
    const auth = payment?.payload?.authorization;
    const fields = read(body);
    if (!auth || !fields) return { isValid: false, invalidReason: 'invalid_payload' };
    if (fields.scheme !== 'exact') return { isValid: false, invalidReason: 'invalid_scheme' };
    const payer = getAddress(auth.from);
    const valid = await verifyTypedData({
      address: payer,
      domain: {
        name: req.extra.name,
        version: req.extra.version,
        chainId: fields.info.chainId,
        verifyingContract: getAddress(req.asset) as Address,
      },
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message: {
        from: payer,
        to: getAddress(auth.to),
        value: BigInt(auth.value),
        validAfter: BigInt(auth.validAfter),
        validBefore: BigInt(auth.validBefore),
        nonce: auth.nonce as Hex,
      },
      signature: payment.payload.signature as Hex,
    }).catch(() => false);
    if (!valid) return { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature', payer };
    if (getAddress(auth.to) !== getAddress(req.payTo))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_recipient_mismatch', payer };
    if (BigInt(auth.value) < BigInt(fields.amount))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_value', payer };
    const now = Math.floor(Date.now() / 1000);
    if (BigInt(auth.validBefore) < BigInt(now + 6))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_before', payer };
    if (BigInt(auth.validAfter) > BigInt(now))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_after', payer };
    if (used.has(useKey(payer, auth.nonce))) return { isValid: false, invalidReason: 'nonce_already_used', payer };
    return { isValid: true, payer };
  }

  /** Ethereum JSON-RPC, the few methods the service calls. */
  function rpc(request: any): unknown {
    const answer = (result: unknown) => ({ jsonrpc: '2.0', id: request.id, result });
    if (state.chainDown) return { jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'unavailable' } };
    switch (request.method) {
      case 'eth_chainId':
        return answer('0x14a34');
      case 'eth_blockNumber':
        return answer(`0x${block.toString(16)}`);
      case 'eth_call': {
        const { args } = decodeFunctionData({ abi: TOKEN_ABI, data: request.params[0].data });
        const isUsed = used.has(useKey(args[0], args[1]));
        return answer(encodeFunctionResult({ abi: TOKEN_ABI, functionName: 'authorizationState', result: isUsed }));
      }
      case 'eth_getLogs': {
        const filter = request.params[0];
        const [, authorizer, nonce] = filter.topics as [Hex, Hex, Hex];
        const logs = [...used.values()]
          .filter((u) => {
            const [, a, n] = encodeEventTopics({
              abi: [AUTHORIZATION_USED],
              eventName: 'AuthorizationUsed',
              args: { authorizer: u.payer, nonce: u.nonce },
            });
            return a === authorizer && n === nonce && u.block >= BigInt(filter.fromBlock);
          })
          .map((u) => ({
            address: u.asset.toLowerCase(),
            topics: encodeEventTopics({
              abi: [AUTHORIZATION_USED],
              eventName: 'AuthorizationUsed',
              args: { authorizer: u.payer, nonce: u.nonce },
            }),
            data: '0x',
            blockNumber: `0x${u.block.toString(16)}`,
            blockHash: `0x${'ab'.repeat(32)}`,
            transactionHash: u.tx,
            transactionIndex: '0x0',
            logIndex: '0x0',
            removed: false,
          }));
        return answer(logs);
      }
      default:
        return { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'method not found' } };
    }
  }

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      if (req.method === 'POST' && req.url === '/rpc') {
        const body = await readJson(req);
        return send(200, Array.isArray(body) ? body.map(rpc) : rpc(body));
      }
      if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return send(404, {});
      const body = await readJson(req);
      state.calls.push({ path: req.url, body, headers: req.headers });
      const verdict = await verify(body);
      if (req.url === '/verify') return send(200, verdict);
      if (state.dropSettle) return req.socket.destroy();
      const network = body?.paymentRequirements?.network ?? '';
      if (!verdict.isValid || state.failSettle) {
        return send(200, {
          success: false,
          errorReason: state.failSettle ? 'insufficient_funds' : verdict.invalidReason,
          payer: verdict.payer,
          transaction: '',
          network,
        });
      }
      const auth = body.paymentPayload.payload.authorization;
      const transaction = state.execute(auth.from, auth.nonce);
      state.settled.set(transaction, { from: auth.from, to: auth.to, value: auth.value, nonce: auth.nonce });
      if (state.loseSettleAnswer) return req.socket.destroy();
      return send(200, { success: true, payer: verdict.payer, transaction, network });
    } catch {
      return send(400, { error: 'bad request' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.rpcUrl = `${state.url}/rpc`;
  state.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}
