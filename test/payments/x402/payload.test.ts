import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  decodePaymentHeader,
  decodePaymentSignatureHeader,
  encodePaymentResponse,
  MalformedPayment,
} from '../../../src/payments/x402/payload.js';

const payment = {
  x402Version: 1,
  scheme: 'exact',
  network: 'base-sepolia',
  payload: {
    signature: `0x${'ab'.repeat(65)}`,
    authorization: {
      from: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
      to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      value: '190000',
      validAfter: '1740672089',
      validBefore: '1740672154',
      nonce: `0x${'f3'.repeat(32)}`,
    },
  },
};
const encode = (value: unknown, encoding: 'base64' | 'base64url' = 'base64') =>
  Buffer.from(JSON.stringify(value)).toString(encoding);

describe('X-PAYMENT decoding', () => {
  test('a v1 exact payload decodes to the same object', () => {
    assert.deepEqual(decodePaymentHeader(encode(payment)), payment);
  });

  test('base64url is accepted too', () => {
    assert.deepEqual(decodePaymentHeader(encode(payment, 'base64url')), payment);
  });

  test('numbers instead of decimal strings are malformed', () => {
    const bad = {
      ...payment,
      payload: { ...payment.payload, authorization: { ...payment.payload.authorization, value: 190000 } },
    };
    assert.throws(() => decodePaymentHeader(encode(bad)), MalformedPayment);
  });

  test('a short nonce is malformed, and the message names the field without echoing the header', () => {
    const header = encode({
      ...payment,
      payload: { ...payment.payload, authorization: { ...payment.payload.authorization, nonce: '0x01' } },
    });
    assert.throws(
      () => decodePaymentHeader(header),
      (err: Error) => err instanceof MalformedPayment && /nonce/.test(err.message) && !err.message.includes(header),
    );
  });

  test('text that is not base64 JSON is malformed', () => {
    for (const header of ['', '%%%', Buffer.from('hello').toString('base64'), 'x'.repeat(20_000)]) {
      assert.throws(() => decodePaymentHeader(header), MalformedPayment, header.slice(0, 10));
    }
  });
});

describe('X-PAYMENT-RESPONSE encoding', () => {
  test('base64 JSON carrying the hash as txHash and as transaction', () => {
    const receipt = {
      success: true as const,
      txHash: `0x${'12'.repeat(32)}`,
      transaction: `0x${'12'.repeat(32)}`,
      network: 'base',
      payer: payment.payload.authorization.from,
    };
    assert.deepEqual(JSON.parse(Buffer.from(encodePaymentResponse(receipt), 'base64').toString('utf8')), receipt);
  });
});

describe('PAYMENT-SIGNATURE decoding (x402 v2)', () => {
  const v2 = {
    x402Version: 2,
    accepted: {
      scheme: 'exact',
      network: 'eip155:84532',
      amount: '190000',
      asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
      maxTimeoutSeconds: 60,
      extra: { name: 'USDC', version: '2' },
    },
    payload: {
      signature: `0x${'ab'.repeat(65)}`,
      authorization: {
        from: '0x857b06519E91e3A54538791bDbb0E22373e36b66',
        to: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
        value: '190000',
        validAfter: '0',
        validBefore: '1800000060',
        nonce: `0x${'00'.repeat(32)}`,
      },
    },
  };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

  test('a v2 payload with its accepted entry decodes to the same object', () => {
    assert.deepEqual(decodePaymentSignatureHeader(encode(v2)), v2);
  });

  test('a payload without its accepted entry is malformed, and the message names the header', () => {
    const { accepted: _accepted, ...bad } = v2;
    assert.throws(() => decodePaymentSignatureHeader(encode(bad)), /PAYMENT-SIGNATURE payload is invalid: accepted/);
  });
});
