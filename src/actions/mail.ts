// Outgoing mail: queued in the database in the transaction of the change that causes it (so it exists exactly
// when the change does, and no request waits for a mail server), delivered by a worker in every serving process,
// each mail claimed by one of them, retried with backoff when sending fails. Nothing is lost to an outage.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { renderMail, type MailTemplate } from '../format/mail.js';
import { hostOf, organizationUrl } from '../lib/urls.js';
import type { Mailer } from '../lib/mailer.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { claimMail, dueMail, enqueueMail, markMailFailed, markMailSent } from '../store/outgoing-mail.js';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function queueMail(tx: Tx, mail: OutgoingMail): Promise<void> {
  await enqueueMail(tx, { to: mail.to, subject: mail.subject, body: JSON.stringify({ from: mail.from, text: mail.text, html: mail.html }) }, nowSeconds());
}

// A mail of the organization from its template, its links to the organization's configured URL.
export async function queueTemplateMail(app: App, tx: Tx, realm: Realm, to: string, template: MailTemplate): Promise<void> {
  const realmUrl = organizationUrl(app, realm);
  await queueMail(tx, { from: mailSender(app, realmUrl), to, ...renderMail(template, realmUrl, realm.name) });
}

// A sending attempt has this long before another process may take the mail up again.
const LEASE_SECONDS = 300;
// The wait after the n-th failure: 30 s, doubling, at most six hours.
export const retryDelaySeconds = (attempts: number) => Math.min(30 * 2 ** Math.max(0, attempts - 1), 6 * 3600);

// The sender of an organization's mail.
export const mailSender = (app: App, realmUrl: string) => app.config.mailFrom ?? `noreply@${hostOf(realmUrl)}`;

export async function deliverDueMail(app: App, mailer: Mailer): Promise<void> {
  const now = nowSeconds();
  for (const mail of await dueMail(app.db, now, 20)) {
    if (!(await claimMail(app.db, mail.id, mail.attempts, now + LEASE_SECONDS))) continue;
    const { from, text, html } = JSON.parse(mail.body) as { from: string; text: string; html: string };
    try {
      const where = await mailer.send({ from, to: mail.to, subject: mail.subject, text, html });
      await markMailSent(app.db, mail.id, nowSeconds());
      app.log.info({ to: mail.to, subject: mail.subject, where }, 'mail sent');
    } catch (err) {
      const retryAt = nowSeconds() + retryDelaySeconds(mail.attempts + 1);
      await markMailFailed(app.db, mail.id, retryAt, (err as Error).message);
      app.log.warn({ err, to: mail.to, attempts: mail.attempts + 1 }, 'mail not sent; will try again');
    }
  }
}
