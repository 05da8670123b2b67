// The mails the server sends, one template each (rendered by src/format/mail.ts): invitations, password resets,
// e-mail address changes, new-login notices and missed-message notifications.
import type { MailTemplate } from './mail.js';

const when = (seconds: number) => new Date(seconds * 1000).toUTCString();

export function invitationMail(p: { realmName: string; inviterName: string; inviterEmail: string; key: string; expiry: number | null }): MailTemplate {
  return {
    subject: `${p.inviterName} invited you to join ${p.realmName}`,
    blocks: [
      ['Hi there,'],
      [`${p.inviterName} (${p.inviterEmail}) wants you to join them on `, { strong: p.realmName }, ', their team chat.'],
      ['To sign up, open this link: ', { link: `/join/${p.key}/` }],
      ...(p.expiry !== null ? [[`The link expires on ${when(p.expiry)}.`]] : []),
    ],
  };
}

export function passwordResetMail(p: { realmName: string; email: string; token: string; validMinutes: number }): MailTemplate {
  return {
    subject: `Reset your password for ${p.realmName}`,
    blocks: [
      [`Someone (hopefully you) asked to reset the password of the account ${p.email} in `, { strong: p.realmName }, '.'],
      ['To choose a new password, open this link: ', { link: `/accounts/password/reset/${p.token}/` }],
      [`The link works once, within ${p.validMinutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`],
    ],
  };
}

export function confirmNewEmailMail(p: { realmName: string; oldEmail: string; newEmail: string; key: string; validHours: number }): MailTemplate {
  return {
    subject: `Verify your new email address for ${p.realmName}`,
    blocks: [
      [`Someone (hopefully you) asked to change the e-mail address of your account in `, { strong: p.realmName }, ` from ${p.oldEmail} to ${p.newEmail}.`],
      ['To confirm the change, open this link: ', { link: `/accounts/confirm_new_email/${p.key}/` }],
      [`The link works within ${p.validHours} hours. If you did not ask for this, ignore this mail: nothing changes.`],
    ],
  };
}

export function emailChangedMail(p: { realmName: string; oldEmail: string; newEmail: string }): MailTemplate {
  return {
    subject: `Email address changed for ${p.realmName}`,
    blocks: [
      [`The e-mail address of your account in `, { strong: p.realmName }, ` was changed from ${p.oldEmail} to ${p.newEmail}.`],
      ['If you did not make this change, contact your organization administrators at once.'],
    ],
  };
}

export function newLoginMail(p: { realmName: string; email: string; time: number; ip: string; userAgent: string }): MailTemplate {
  return {
    subject: `New login to ${p.realmName}`,
    blocks: [
      [`Your account ${p.email} in `, { strong: p.realmName }, ' was logged in to from a web browser.'],
      [`Time: ${when(p.time)}`],
      [`From: ${p.ip}`],
      [`Browser: ${p.userAgent || 'unknown'}`],
      ['If this was not you, change your password at once and log out everywhere: ', { link: '/#settings/account-and-privacy' }],
      ['You can turn these mails off in your notification settings.'],
    ],
  };
}

export interface MissedMessage {
  id: number;
  senderName: string;
  // "direct message" or "#channel > topic"
  where: string;
  // null when the organization or the user keeps message content out of mails
  content: string | null;
}

export function missedMessagesMail(p: { realmName: string; messages: MissedMessage[] }): MailTemplate {
  const senders = [...new Set(p.messages.map((m) => m.senderName))];
  const places = [...new Set(p.messages.map((m) => m.where))];
  const subject = places.length === 1 && places[0] !== 'direct message' ? places[0]
    : senders.length === 1 ? `New messages from ${senders[0]}` : `New messages in ${p.realmName}`;
  return {
    subject,
    blocks: [
      [`You have ${p.messages.length === 1 ? 'a message' : `${p.messages.length} messages`} you have not read in `, { strong: p.realmName }, ':'],
      ...p.messages.flatMap((m): MailTemplate['blocks'] => [
        { heading: `${m.senderName} (${m.where})` },
        m.content === null ? [`${m.senderName} sent you a message.`] : { quote: m.content },
        [{ link: `/#narrow/near/${m.id}`, label: 'Open in the app' }],
      ]),
      ['You get these mails for direct messages and mentions you have not read; change that in your notification settings: ', { link: '/#settings/notifications' }],
    ],
  };
}
