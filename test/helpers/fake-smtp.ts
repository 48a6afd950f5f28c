import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A local SMTP server (smtp-server) that captures real messages, or refuses them while `failing` is set. */
export class FakeSmtp {
  readonly messages: { to: string[]; raw: string }[] = [];
  failing = false;

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<FakeSmtp> {
    let fake: FakeSmtp | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          if (fake!.failing) {
            const err = new Error('mailbox temporarily unavailable') as Error & { responseCode: number };
            err.responseCode = 451;
            callback(err);
            return;
          }
          fake!.messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    fake = new FakeSmtp(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
