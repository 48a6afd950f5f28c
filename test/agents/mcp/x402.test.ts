import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import Ajv2020 from 'ajv/dist/2020.js';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DeepSignal } from '../../../src/schemas/deep-signal.js';
import { X402PaymentRequiredV2, X402PaymentResponseV2 } from '../../../src/schemas/payments.js';
import { startFakeFacilitator, type FakeFacilitator } from '../../helpers/fake-facilitator.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';

type Json = Record<string, any>;
const PAY_TO = '0x209693bc6afc0c5328ba36faf03c514ef312287c';
const TOOL = 'get_deep_signal';

/** A wallet and the x402 client library's client that signs with it. */
function payingClient() {
  const account = privateKeyToAccount(generatePrivateKey());
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  return { account, client };
}

/**
 * x402 v2 over MCP with the x402 client library (@x402/core's x402Client and @x402/evm's exact scheme, which sign
 * what the MCP binding carries) against the fake facilitator: the flow of the x402 specification's MCP transport.
 */
describe('get_deep_signal paid per call with x402 over MCP', () => {
  let svc: TestApp;
  let facilitator: FakeFacilitator;
  let tracked: string;
  before(async () => {
    facilitator = await startFakeFacilitator();
    svc = await startTestApp({
      X402_PAY_TO: PAY_TO,
      X402_FACILITATOR_URL: facilitator.url,
      X402_RPC_URL: facilitator.rpcUrl,
    });
    tracked = svc.service.holder.current!.startups[0]!.startup.name;
  });
  after(async () => {
    await svc.close();
    await facilitator.close();
  });

  /** A 2025-11-25 client (the 1.x SDK, which validates structured content even of error results) that listed tools. */
  async function connect(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'x402-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { fetch: svc.fetch, requestInit: { headers } }),
    );
    await client.listTools();
    return client;
  }

  const offerOf = (result: Json) => X402PaymentRequiredV2.parse(result.structuredContent) as PaymentRequired;
  const call = (client: Client, args: Json, payment?: PaymentPayload) =>
    client.callTool({
      name: TOOL,
      arguments: args,
      ...(payment ? { _meta: { 'x402/payment': payment } } : {}),
    }) as Promise<Json>;

  test('an unpaid call answers the x402 v2 offer as an error result, the same JSON as structured content and text', async () => {
    const result = await call(await connect(), { name: tracked });
    assert.equal(result.isError, true);
    const offer = offerOf(result);
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
    assert.equal(offer.x402Version, 2);
    assert.equal(offer.resource.url, `${svc.url}/mcp`);
    assert.equal(offer.accepts.length, 1);
    assert.equal(offer.accepts[0]!.network, 'eip155:84532');
    assert.equal(offer.accepts[0]!.amount, '190000');
    assert.match(offer.error ?? '', /x402\/payment/);
    assert.ok(offer.error?.includes(`${svc.url}/agents/credits`), 'names the credit-pack page too');
  });

  test('the offer is the REST route’s: same price, token, recipient, network and time limit', async () => {
    const result = await call(await connect(), { name: tracked });
    const rest = await svc.get('/api/agent/deep-signal/x402', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: tracked }),
    });
    const restOffer = JSON.parse(Buffer.from(rest.headers.get('payment-required')!, 'base64').toString('utf8'));
    assert.deepEqual(offerOf(result).accepts, restOffer.accepts);
  });

  test('the offer declares the tool for discovery (bazaar): its info matches its own schema', async () => {
    const offer = offerOf(await call(await connect(), { name: tracked }));
    const bazaar = offer.extensions?.bazaar as Json;
    assert.equal(bazaar.info.input.type, 'mcp');
    assert.equal(bazaar.info.input.toolName, TOOL);
    assert.deepEqual(bazaar.info.input.inputSchema.required, ['name']);
    const validate = new Ajv2020.default({ strict: false }).compile(bazaar.schema);
    assert.equal(validate(bazaar.info), true, JSON.stringify(validate.errors));
  });

  test('paid with the x402 client library: the Deep Signal answer, the settlement in _meta, settled once', async () => {
    const client = await connect();
    const { account, client: payer } = payingClient();
    const payment = await payer.createPaymentPayload(offerOf(await call(client, { name: tracked })));
    const settlesBefore = facilitator.settleCalls().length;
    const result = await call(client, { name: tracked }, payment);
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    assert.equal(DeepSignal.parse(result.structuredContent).name, tracked);
    const settlement = X402PaymentResponseV2.parse(result._meta['x402/payment-response']);
    assert.equal(settlement.payer, account.address);
    assert.ok(facilitator.settled.has(settlement.transaction));
    assert.equal(facilitator.settleCalls().length, settlesBefore + 1);
  });

  test('the same payment sent again is refused with the offer, and nothing more is settled', async () => {
    const client = await connect();
    const { client: payer } = payingClient();
    const payment = await payer.createPaymentPayload(offerOf(await call(client, { name: tracked })));
    assert.notEqual((await call(client, { name: tracked }, payment)).isError, true);
    const settlesBefore = facilitator.settleCalls().length;
    const again = await call(client, { name: tracked }, payment);
    assert.equal(again.isError, true);
    assert.equal(offerOf(again).error, 'authorization_already_used');
    assert.equal(facilitator.settleCalls().length, settlesBefore);
  });

  test('a paid call for an untracked startup answers found: false and settles nothing', async () => {
    const client = await connect();
    const { client: payer } = payingClient();
    const payment = await payer.createPaymentPayload(offerOf(await call(client, { name: tracked })));
    const settlesBefore = facilitator.settleCalls().length;
    const result = await call(client, { name: 'Qzxv Nonexistent Labs' }, payment);
    assert.notEqual(result.isError, true);
    assert.equal(result.structuredContent.found, false);
    assert.equal(result._meta?.['x402/payment-response'], undefined);
    assert.equal(facilitator.settleCalls().length, settlesBefore);
    const [row] = await svc.service.store.db
      .selectFrom('x402_payments')
      .selectAll()
      .where('nonce', '=', (payment.payload as Json).authorization.nonce.toLowerCase())
      .execute();
    assert.equal(row, undefined);
  });

  test('a malformed payment in _meta is a 400 error result naming the field, with nothing verified', async () => {
    const client = await connect();
    const verifiesBefore = facilitator.calls.length;
    const result = await call(client, { name: tracked }, { x402Version: 2, payload: {} } as unknown as PaymentPayload);
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^400 .*x402\/payment/);
    assert.equal(facilitator.calls.length, verifiesBefore);
  });

  test('a caller with a credit-pack key and no payment is answered on its key, not offered x402', async () => {
    const result = await call(await connect({ authorization: 'Bearer sk_not_a_key' }), { name: tracked });
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    assert.match(result.content[0].text, /^401 /);
  });

  test('a 2026-07-28 client pays the same way', async () => {
    const client = new ModernClient(
      { name: 'x402-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernTransport(new URL(`${svc.url}/mcp`), { fetch: svc.fetch }));
    const { client: payer } = payingClient();
    const unpaid = (await client.callTool({ name: TOOL, arguments: { name: tracked } })) as Json;
    const payment = await payer.createPaymentPayload(offerOf(unpaid));
    const paid = (await client.callTool({
      name: TOOL,
      arguments: { name: tracked },
      _meta: { 'x402/payment': payment },
    })) as Json;
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    assert.equal(DeepSignal.parse(paid.structuredContent).name, tracked);
    assert.ok(facilitator.settled.has(paid._meta['x402/payment-response'].transaction));
    await client.close();
  });
});

describe('signal-mcp proxying a deployment sells get_deep_signal per call through its x402 route', () => {
  let svc: TestApp;
  let facilitator: FakeFacilitator;
  let client: Client;
  let tracked: string;
  before(async () => {
    facilitator = await startFakeFacilitator();
    svc = await startTestApp(
      { X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: facilitator.url, X402_RPC_URL: facilitator.rpcUrl },
      { listen: true },
    );
    tracked = svc.service.holder.current!.startups[0]!.startup.name;
    client = new Client({ name: 'x402-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', path.resolve(import.meta.dirname, '../../../src/cli/mcp.ts')],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          SIGNAL_BASE_URL: svc.url,
          LOG_LEVEL: 'warn',
        },
        stderr: 'ignore',
      }),
    );
    await client.listTools();
  });
  after(async () => {
    await client?.close();
    await svc?.close();
    await facilitator?.close();
  });

  test('the offer, then the paid answer with its settlement, settled once by the deployment', async () => {
    const { client: payer } = payingClient();
    const unpaid = (await client.callTool({ name: TOOL, arguments: { name: tracked } })) as Json;
    assert.equal(unpaid.isError, true);
    const payment = await payer.createPaymentPayload(
      X402PaymentRequiredV2.parse(unpaid.structuredContent) as PaymentRequired,
    );
    const settlesBefore = facilitator.settleCalls().length;
    const paid = (await client.callTool({
      name: TOOL,
      arguments: { name: tracked },
      _meta: { 'x402/payment': payment },
    })) as Json;
    assert.notEqual(paid.isError, true, JSON.stringify(paid.content));
    assert.equal(DeepSignal.parse(paid.structuredContent).name, tracked);
    assert.ok(facilitator.settled.has(X402PaymentResponseV2.parse(paid._meta['x402/payment-response']).transaction));
    assert.equal(facilitator.settleCalls().length, settlesBefore + 1);
  });
});
