// When two identities (e-mail addresses, bot names) are "the same" to a reader: equal after NFKC, case folding,
// dropping invisible characters and mapping look-alike letters of other scripts to the Latin letters they pass
// for. The result is a key for comparison, never shown.
import { domainToUnicode } from 'node:url';

// The server's own bots, each a fixed role stored on its user row (users.system_bot) and found by it.
export const SYSTEM_BOTS = {
  notification: { localPart: 'notification-bot', fullName: 'Notification Bot' },
  welcome: { localPart: 'welcome-bot', fullName: 'Welcome Bot' },
  emailGateway: { localPart: 'emailgateway', fullName: 'Email Gateway' },
} as const;
export type SystemBotRole = keyof typeof SYSTEM_BOTS;

// The domain of the placeholder addresses (user<id>@…) of users who hide theirs, when PARLANCE_EXTERNAL_URL does
// not name the organization's host. `.invalid` never delivers mail (RFC 2606).
export const PLACEHOLDER_DOMAIN = 'parlance.invalid';

// Default-ignorable code points: invisible, so "ab" and "a\u200bb" read the same.
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;

// Letters of other scripts drawn like Latin ones (from Unicode's confusables, the common cases). Both cases are
// listed: folding first would lose that Cyrillic Н looks like H while н does not.
const HOMOGLYPHS: Record<string, string> = {
  // Cyrillic
  А: 'A', В: 'B', С: 'C', Е: 'E', Н: 'H', І: 'I', Ј: 'J', К: 'K', М: 'M', О: 'O', Р: 'P', Ѕ: 'S', Т: 'T', Х: 'X', У: 'Y', Ү: 'Y',
  Ԛ: 'Q', Ԝ: 'W', Ӏ: 'l', а: 'a', с: 'c', е: 'e', і: 'i', ј: 'j', о: 'o', р: 'p', ѕ: 's', х: 'x', у: 'y', ү: 'y', һ: 'h', ԁ: 'd',
  ԛ: 'q', ԝ: 'w', ӏ: 'l',
  // Greek
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X', Ϲ: 'C', Ϳ: 'J',
  α: 'a', γ: 'y', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', υ: 'u', χ: 'x', ϲ: 'c', ϳ: 'j',
  // Armenian
  հ: 'h', ո: 'n', ս: 'u', ց: 'g', օ: 'o', զ: 'q',
  // Latin letters outside ASCII
  ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i',
};
const HOMOGLYPH = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'gu');

// The comparison key of any text (names): folding upper then lower case also folds ß to ss and ı to i.
export function textKey(text: string): string {
  const s = text.normalize('NFKC').replace(INVISIBLE, '').replace(HOMOGLYPH, (c) => HOMOGLYPHS[c]);
  return s.toUpperCase().toLowerCase().normalize('NFKC').replace(/\s+/g, ' ').trim();
}

// The key of an e-mail address. A domain written in punycode (xn--…) is read as the letters it stands for.
export function addressKey(email: string): string {
  const e = email.trim();
  const at = e.lastIndexOf('@');
  if (at < 0) return textKey(e);
  const domain = e.slice(at + 1);
  const unicode = /(^|\.)xn--/i.test(domain) ? domainToUnicode(domain) || domain : domain;
  return `${textKey(e.slice(0, at))}@${textKey(unicode)}`;
}

const localPartOf = (key: string) => key.slice(0, key.lastIndexOf('@'));
const domainOf = (key: string) => key.slice(key.lastIndexOf('@') + 1);

// The system bot whose address this (key) would pass for, at any domain: the bots' domain follows configuration.
export function systemBotAddressed(key: string): SystemBotRole | undefined {
  const local = localPartOf(key);
  return (Object.keys(SYSTEM_BOTS) as SystemBotRole[]).find((role) => SYSTEM_BOTS[role].localPart === local);
}

// Whether this (key) is an address no real user may hold: anything at the placeholder domain (or a subdomain of
// it), and user<digits>@ at the organization's placeholder domain, which the organization's host may be, where
// bots legitimately have their addresses.
export function isPlaceholderAddress(key: string, placeholderDomain: string): boolean {
  const domain = domainOf(key);
  if (domain === PLACEHOLDER_DOMAIN || domain.endsWith(`.${PLACEHOLDER_DOMAIN}`)) return true;
  return domain === textKey(placeholderDomain) && /^user\d+$/.test(localPartOf(key));
}
