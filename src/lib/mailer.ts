// The one mail sender: nodemailer over PARLANCE_SMTP_URL, or, without it, each mail written as an .eml file to the
// data directory's outbox/ (and logged), so that a newcomer can read what would have been sent.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
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

export function openMailer(config: Pick<Config, 'smtpUrl' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        const info = await transport.sendMail(mail);
        return `smtp ${String(info.messageId)}`;
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(config.dataDir, 'outbox');
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await writer.sendMail(mail);
      await fs.mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${Date.now()}-${Math.random().toString(36).slice(2, 10)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      return file;
    },
    close: () => writer.close(),
  };
}
