// A real SMTP server in the test process that keeps every mail it receives, parsed (text and HTML decoded), so
// that tests read mails as a person's mail reader would.
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { eventually } from './events.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export class TestInbox {
  readonly mails: ReceivedMail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, cb) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            this.mails.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              raw: raw.toString('utf8'),
            });
            cb();
          },
          (err: Error) => cb(err),
        );
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(resolve));
  }

  to(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  // The first mail to the address whose subject matches.
  about(address: string, subject: RegExp, ms?: number): Promise<ReceivedMail> {
    return eventually(async () => this.to(address).find((m) => subject.test(m.subject)), ms);
  }

  // The n-th mail (counted from 1) to arrive for the address.
  nth(address: string, n: number, ms?: number): Promise<ReceivedMail> {
    return eventually(async () => this.to(address)[n - 1], ms);
  }
}

// The first link to the given path prefix in a mail's text.
export function linkIn(text: string, pathPrefix: string): string | undefined {
  const re = new RegExp(`https?://[^\\s"<>]+${pathPrefix.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}[^\\s"<>]*`);
  return re.exec(text)?.[0];
}
