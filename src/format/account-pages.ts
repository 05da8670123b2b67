// Pages for one's account without being logged in (password reset) and for the first start of an empty server
// (creating the organization and its owner): server-rendered forms with no script, every value escaped.
import { escapeHtml } from '../lib/text.js';
import { page } from './pages.js';

const errorOf = (error?: string) => (error ? `<p class="error" role="alert">${escapeHtml(error)}</p>\n` : '');

export function resetRequestPage(f: { realmName: string; email?: string; error?: string }): string {
  return page(
    `Reset your password for ${f.realmName}`,
    `<h1>Reset your password</h1>
<p>Enter the e-mail address of your account in ${escapeHtml(f.realmName)}: we will send it a link to choose a new password.</p>
${errorOf(f.error)}<form method="post" action="/accounts/password/reset/">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" autofocus value="${escapeHtml(f.email ?? '')}">
<button type="submit">Send the link</button>
</form>
<p><a href="/login/">Back to the login page</a></p>`,
  );
}

// The same page whether or not the address has an account.
export function resetSentPage(realmName: string, minutes: number): string {
  return page(
    'Check your e-mail',
    `<h1>Check your e-mail</h1>
<p>If an account of ${escapeHtml(realmName)} has this address, a mail with a link to choose a new password is on its way.
The link works once, within ${minutes} minutes.</p>
<p><a href="/login/">Back to the login page</a></p>`,
  );
}

export function resetConfirmPage(f: { email: string; error?: string }): string {
  return page(
    'Choose a new password',
    `<h1>Choose a new password</h1>
<p>For the account ${escapeHtml(f.email)}.</p>
${errorOf(f.error)}<form method="post">
<input type="hidden" name="username" value="${escapeHtml(f.email)}" autocomplete="username">
<label for="new_password">New password</label>
<input id="new_password" name="new_password" type="password" required autocomplete="new-password" autofocus>
<button type="submit">Set the password</button>
</form>`,
  );
}

export function resetDonePage(): string {
  return page(
    'Password changed',
    `<h1>Password changed</h1>
<p>Your password has been changed, and every browser that was logged in to your account has been logged out.</p>
<p><a href="/login/">Log in</a></p>`,
  );
}

export interface FirstStartForm {
  realmName?: string;
  fullName?: string;
  email?: string;
  error?: string;
}

export function firstStartPage(f: FirstStartForm): string {
  return page(
    'Create your organization',
    `<h1>Create your organization</h1>
<p>This server has no organization yet. Create it, and its owner's account (yours).</p>
${errorOf(f.error)}<form method="post" action="/new/" autocomplete="on">
<label for="realm_name">Organization name</label>
<input id="realm_name" name="realm_name" required maxlength="40" value="${escapeHtml(f.realmName ?? '')}">
<label for="full_name">Your name</label>
<input id="full_name" name="full_name" required maxlength="100" autocomplete="name" value="${escapeHtml(f.fullName ?? '')}">
<label for="email">Your e-mail address</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${escapeHtml(f.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="new-password">
<button type="submit">Create the organization</button>
</form>`,
  );
}
