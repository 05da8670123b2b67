// The few HTML pages the server renders itself (joining through an invitation link): plain server-rendered
// forms with no script. Every value placed in them goes through escapeHtml.
import { escapeHtml } from '../lib/text.js';
import { ROLE } from '../store/users.js';

const ROLE_NAMES: Record<number, string> = {
  [ROLE.owner]: 'an organization owner',
  [ROLE.administrator]: 'an organization administrator',
  [ROLE.moderator]: 'a moderator',
  [ROLE.member]: 'a member',
  [ROLE.guest]: 'a guest',
};

const STYLE = `body{font-family:system-ui,sans-serif;background:#f5f5f5;color:#222;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .3rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}
.error{background:#fde8e8;color:#8a1f1f;padding:.7rem;border-radius:4px}code{word-break:break-all}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface JoinForm {
  realmName: string;
  invitedAs: number;
  fullName?: string;
  email?: string;
  // An e-mail invitation's address, which the account gets whatever the form says.
  emailFixed?: boolean;
  error?: string;
}

export function joinFormPage(f: JoinForm): string {
  const error = f.error ? `<p class="error" role="alert">${escapeHtml(f.error)}</p>\n` : '';
  return page(
    `Join ${f.realmName}`,
    `<h1>Join ${escapeHtml(f.realmName)}</h1>
<p>You have been invited to join as ${ROLE_NAMES[f.invitedAs] ?? 'a member'}.</p>
${error}<form method="post" autocomplete="on">
<label for="full_name">Full name</label>
<input id="full_name" name="full_name" required maxlength="100" autocomplete="name" value="${escapeHtml(f.fullName ?? '')}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" required maxlength="254" autocomplete="email" value="${escapeHtml(f.email ?? '')}"${f.emailFixed ? ' readonly' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="new-password">
<button type="submit">Create account</button>
</form>`,
  );
}

export interface Joined {
  realmName: string;
  realmUrl: string;
  fullName: string;
  email: string;
  apiKey: string;
}

export function joinedPage(j: Joined): string {
  return page(
    `Welcome to ${j.realmName}`,
    `<h1>Welcome to ${escapeHtml(j.realmName)}, ${escapeHtml(j.fullName)}!</h1>
<p>Your account <strong id="email">${escapeHtml(j.email)}</strong> is ready. Log in to
<a href="${escapeHtml(j.realmUrl)}">${escapeHtml(j.realmUrl)}</a> with any Zulip client, using this e-mail address and your password.</p>
<p>Bots and scripts can use your API key instead of the password:</p>
<p><code id="api-key">${escapeHtml(j.apiKey)}</code></p>`,
  );
}

export function problemPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
