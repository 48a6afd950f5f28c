import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress, verifyTypedData, type Address, type Hex } from 'viem';
import {
  TRANSFER_WITH_AUTHORIZATION_TYPES,
  X402_NETWORKS,
  type X402Network,
} from '../../src/payments/x402/networks.js';

/**
 * A local x402 facilitator speaking the real v1 protocol on 127.0.0.1: /verify checks the EIP-3009 signature with
 * viem against the token's EIP-712 domain, the recipient, the amount, the validity window and the nonce; /settle
 * verifies again, "executes" the transfer (marks the nonce used, as the token contract would) and answers a
 * transaction hash. Every call is recorded so tests can assert which ones were made.
 */
export interface FacilitatorCall {
  path: '/verify' | '/settle';
  body: any;
  headers: IncomingMessage['headers'];
}

export interface FakeFacilitator {
  url: string;
  calls: FacilitatorCall[];
  settleCalls(): FacilitatorCall[];
  /** Settled transactions, by hash. */
  settled: Map<string, { from: string; to: string; value: string; nonce: string }>;
  /** Make /settle refuse (as when the payer's balance moved away between verify and settle). */
  failSettle: boolean;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeFacilitator(): Promise<FakeFacilitator> {
  const usedNonces = new Set<string>();
  const state: FakeFacilitator = {
    url: '',
    calls: [],
    settleCalls: () => state.calls.filter((c) => c.path === '/settle'),
    settled: new Map(),
    failSettle: false,
    close: async () => {},
  };

  async function verify(body: any): Promise<{ isValid: boolean; invalidReason?: string; payer?: string }> {
    const payment = body?.paymentPayload;
    const req = body?.paymentRequirements;
    const auth = payment?.payload?.authorization;
    if (body?.x402Version !== 1 || !auth || !req) return { isValid: false, invalidReason: 'invalid_payload' };
    const info = X402_NETWORKS[req.network as X402Network];
    if (!info || payment.network !== req.network) return { isValid: false, invalidReason: 'invalid_network' };
    if (payment.scheme !== 'exact' || req.scheme !== 'exact')
      return { isValid: false, invalidReason: 'invalid_scheme' };
    const payer = getAddress(auth.from);
    const valid = await verifyTypedData({
      address: payer,
      domain: {
        name: req.extra.name,
        version: req.extra.version,
        chainId: info.chainId,
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
    if (BigInt(auth.value) < BigInt(req.maxAmountRequired))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_value', payer };
    const now = Math.floor(Date.now() / 1000);
    if (BigInt(auth.validBefore) < BigInt(now + 6))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_before', payer };
    if (BigInt(auth.validAfter) > BigInt(now))
      return { isValid: false, invalidReason: 'invalid_exact_evm_payload_authorization_valid_after', payer };
    if (usedNonces.has(`${payer}:${auth.nonce}`)) return { isValid: false, invalidReason: 'nonce_already_used', payer };
    return { isValid: true, payer };
  }

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    try {
      if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle')) return send(404, {});
      const body = await readJson(req);
      state.calls.push({ path: req.url, body, headers: req.headers });
      const verdict = await verify(body);
      if (req.url === '/verify') return send(200, verdict);
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
      usedNonces.add(`${verdict.payer}:${auth.nonce}`);
      const transaction = `0x${randomBytes(32).toString('hex')}`;
      state.settled.set(transaction, { from: auth.from, to: auth.to, value: auth.value, nonce: auth.nonce });
      return send(200, { success: true, payer: verdict.payer, transaction, network });
    } catch {
      return send(400, { error: 'bad request' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}
