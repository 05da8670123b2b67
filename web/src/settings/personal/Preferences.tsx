// Preferences: theme, emoji set, time format, what Enter does, the home view and reading.
import { useServer } from '../../data/hooks';
import { setSetting } from '../actions';
import { Choice, Section, Status, Toggle, useRequest } from '../controls';

export default function Preferences() {
  const settings = useServer((s) => s.settings);
  const emojisets = useServer((s) => (s.settings.emojiset_choices as { key: string; text: string }[] | undefined) ?? []);
  const [outcome, run] = useRequest();
  const save = (name: string) => (v: unknown) => run(setSetting(name, v));
  const sets: [string, string][] = emojisets.length ? emojisets.map((c) => [c.key, c.text]) : [['google', 'Google'], ['twitter', 'Twitter'], ['text', 'Plain text']];
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Appearance">
        <Choice id="color-scheme" label="Theme" value={Number(settings.color_scheme ?? 1)} options={[[1, 'Automatic (follow the system)'], [3, 'Light'], [2, 'Dark']]} onChange={save('color_scheme')} />
        <Choice id="emojiset" label="Emoji" value={String(settings.emojiset ?? 'google')} options={sets} onChange={save('emojiset')} />
        <Choice id="time-format" label="Time format" value={settings.twenty_four_hour_time ? '24' : '12'} options={[['12', '12-hour (5:00 PM)'], ['24', '24-hour (17:00)']]} onChange={(v) => save('twenty_four_hour_time')(v === '24')} />
        <Toggle label="Show who reacted, under a message" checked={!!settings.display_emoji_reaction_users} onChange={save('display_emoji_reaction_users')} />
      </Section>
      <Section title="Writing">
        <Choice id="enter-sends" label="Pressing Enter" value={settings.enter_sends ? 'send' : 'newline'} options={[['newline', 'Adds a new line (Ctrl+Enter sends)'], ['send', 'Sends the message (Shift+Enter adds a line)']]} onChange={(v) => save('enter_sends')(v === 'send')} />
      </Section>
      <Section title="Navigation">
        <Choice id="home-view" label="Home view" value={String(settings.web_home_view ?? 'inbox')} options={[['inbox', 'Inbox'], ['recent', 'Recent conversations'], ['all_messages', 'Combined feed']]} onChange={save('web_home_view')} />
        <Toggle label="Esc goes to the home view" checked={settings.web_escape_navigates_to_home_view !== false} onChange={save('web_escape_navigates_to_home_view')} />
        <Choice id="mark-read" label="Mark messages as read as they scroll into view" value={Number(settings.web_mark_read_on_scroll_policy ?? 1)} options={[[1, 'Always'], [2, 'Only in conversation views'], [3, 'Never']]} onChange={save('web_mark_read_on_scroll_policy')} />
      </Section>
    </>
  );
}
