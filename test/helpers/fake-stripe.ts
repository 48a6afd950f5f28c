import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Stripe API at the network boundary: answers POST /v1/checkout/sessions the way Stripe
 * does (form-encoded request, JSON Checkout Session back) and records each request for assertions.
 */
export class FakeStripe {
  readonly requests: { path: string; form: URLSearchParams; authorization: string | undefined }[] = [];
  private counter = 0;

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<FakeStripe> {
    const fake: FakeStripe = new FakeStripe(
      http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => fake.answer(req, res, body));
      }),
    );
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const form = new URLSearchParams(body);
    this.requests.push({ path: req.url ?? '', form, authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    res.setHeader('request-id', `req_${++this.counter}`);
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const id = `cs_test_${this.counter}${'a'.repeat(20)}`;
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'unpaid',
          status: 'open',
          customer_email: form.get('customer_email'),
          success_url: form.get('success_url'),
          url: `https://checkout.stripe.test/c/pay/${id}`,
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(
      JSON.stringify({
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` },
      }),
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
