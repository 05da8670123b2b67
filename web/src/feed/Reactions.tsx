// Reactions under a message, one button per emoji with its count; yours are highlighted, and clicking adds or
// removes yours.
import type { Message, Reaction } from '../api/types';
import { toggleReaction } from '../data/actions';
import { useServer } from '../data/hooks';
import { userName } from '../data/selectors';
import { setUi } from '../app/ui';
import { EmojiGlyph } from '../emoji/EmojiGlyph';
import { Icon } from '../app/icons';

interface Group {
  key: string;
  first: Reaction;
  users: number[];
}

function groups(reactions: Reaction[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = byKey.get(key);
    if (g) g.users.push(r.user_id);
    else byKey.set(key, { key, first: r, users: [r.user_id] });
  }
  return [...byKey.values()];
}

export function Reactions({ message: m }: { message: Message }) {
  const me = useServer((s) => s.me.userId);
  const users = useServer((s) => s.users);
  const showNames = useServer((s) => s.settings.display_emoji_reaction_users);
  return (
    <div className="message_reactions">
      {groups(m.reactions).map((g) => {
        const mine = g.users.includes(me);
        const names = g.users.map((id) => (id === me ? 'You' : userName({ users }, id)));
        const label = `${names.join(', ')} reacted with :${g.first.emoji_name}:`;
        return (
          <button
            key={g.key} type="button" className={`message_reaction${mine ? ' reacted' : ''}`} title={label} aria-label={label} aria-pressed={mine}
            data-emoji-name={g.first.emoji_name}
            onClick={() => void toggleReaction(m, { name: g.first.emoji_name, code: g.first.emoji_code, type: g.first.reaction_type })}
          >
            <EmojiGlyph name={g.first.emoji_name} code={g.first.emoji_code} type={g.first.reaction_type} />
            <span className="message_reaction_count">{showNames && g.users.length <= 3 ? names.join(', ') : g.users.length}</span>
          </button>
        );
      })}
      <button type="button" className="message_reaction add" title="Add emoji reaction" aria-label="Add emoji reaction"
        onClick={(e) => setUi({ overlay: { kind: 'emoji', messageId: m.id, anchor: (e.currentTarget as HTMLElement).getBoundingClientRect() } })}><Icon name="smile" /><Icon name="plus" size={10} /></button>
    </div>
  );
}
