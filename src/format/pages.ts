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

export function page(title: string, body: string, script?: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
${script ? `<script src="${escapeHtml(script)}" defer></script>\n` : ''}</head>
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

export interface LoginForm {
  realmName: string;
  next: string;
  email?: string;
  error?: string;
}

// The form posts to /accounts/login/ as the reference's does (`username` is the e-mail). LOGIN_SCRIPT adds the
// view the person was opening (the part of the address after #, which never reaches the server) to `next`.
export function loginPage(f: LoginForm): string {
  const error = f.error ? `<p class="error" role="alert">${escapeHtml(f.error)}</p>\n` : '';
  return page(
    `Log in to ${f.realmName}`,
    `<h1>Log in to ${escapeHtml(f.realmName)}</h1>
${error}<form method="post" action="/accounts/login/" autocomplete="on">
<input type="hidden" name="next" value="${escapeHtml(f.next)}">
<label for="username">E-mail address</label>
<input id="username" name="username" type="email" required maxlength="254" autocomplete="username" autofocus value="${escapeHtml(f.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Log in</button>
</form>`,
    LOGIN_SCRIPT_PATH,
  );
}

export const LOGIN_SCRIPT_PATH = '/static/login.js';
export const LOGIN_SCRIPT = `// Keeps the view being opened (the address's fragment) across the login.
(function () {
  var next = document.querySelector('input[name="next"]');
  if (next && location.hash && next.value.indexOf('#') < 0) next.value = next.value + location.hash;
})();
`;

export function problemPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
