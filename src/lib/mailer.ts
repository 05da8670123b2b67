// The one mail sender: nodemailer over PARLANCE_SMTP_URL, or, without it, each mail written as an .eml file to the
// data directory's outbox/ (and logged), so that a newcomer can read what would have been sent.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export interface Mail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  // Resolves once the mail is accepted (by the SMTP server, or written to the outbox); where it went.
  send(mail: Mail): Promise<string>;
  close(): void;
}

// nodemailer is loaded with the first mail (12 MB an idle server need not hold; B8).
const transportOf = async (options: Parameters<typeof import('nodemailer').createTransport>[0]): Promise<Transporter> =>
  (await import('nodemailer')).default.createTransport(options);

export function openMailer(config: Pick<Config, 'smtpUrl' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const smtpUrl = config.smtpUrl;
    let transport: Promise<Transporter> | undefined;
    return {
      async send(mail) {
        const info = await (await (transport ??= transportOf(smtpUrl))).sendMail(mail);
        return `smtp ${String(info.messageId)}`;
      },
      close: () => void transport?.then((t) => t.close()),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  let writer: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      const info = await (await (writer ??= transportOf({ streamTransport: true, buffer: true, newline: 'unix' }))).sendMail(mail);
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 10)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      return file;
    },
    close: () => void writer?.then((t) => t.close()),
  };
}
