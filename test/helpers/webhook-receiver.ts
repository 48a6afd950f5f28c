import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A local webhook receiver that verifies each delivery's Standard Webhooks signature with the reference library
 * (`standardwebhooks`), records the verified ones, and can be taken down (its port closed: connections refused),
 * made to fail (503), made to redirect, and brought back on the same port.
 */
export class WebhookReceiver {
  /** Verified deliveries, in arrival order. */
  readonly received: { id: string; body: unknown }[] = [];
  /** Requests whose signature did not verify. */
  readonly rejected: string[] = [];
  /** Every request that reached the receiver (verified or not), up or failing. */
  hits = 0;
  failing = false;
  /** Milliseconds each answer waits (a slow receiver). */
  delayMs = 0;
  redirectTo: string | undefined;
  secret: string | undefined;
  private server: http.Server | undefined;
  private port = 0;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  /** Listens (again, on the same port once it had one). */
  async up(): Promise<void> {
    const server = http.createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => void this.answer(raw, request, response));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private async answer(raw: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    this.hits++;
    if (this.redirectTo) {
      response.writeHead(307, { location: this.redirectTo }).end();
      return;
    }
    if (this.failing) {
      response.writeHead(503).end('down for maintenance');
      return;
    }
    try {
      const body = new Webhook(this.secret!).verify(raw, request.headers as Record<string, string>);
      this.received.push({ id: String(request.headers['webhook-id']), body });
      response.writeHead(204).end();
    } catch (err) {
      this.rejected.push((err as Error).message);
      response.writeHead(400).end();
    }
  }

  /** Closes the port: deliveries now fail to connect. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.down();
  }
}
