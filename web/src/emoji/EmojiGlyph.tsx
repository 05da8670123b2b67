// One emoji: Unicode as text, an organization's custom emoji as its image.
import { useServer } from '../data/hooks';
import { codeToChars } from './chars';

export function EmojiGlyph({ name, code, type }: { name: string; code: string; type: string }) {
  const custom = useServer((s) => (type === 'realm_emoji' ? s.realmEmoji.get(code) : undefined));
  if (type === 'realm_emoji') return custom ? <img className="emoji" src={custom.source_url} alt={`:${name}:`} /> : <span className="emoji">:{name}:</span>;
  if (type === 'zulip_extra_emoji') return <span className="emoji">:{name}:</span>;
  return <span className="emoji" aria-hidden="true">{codeToChars(code)}</span>;
}
