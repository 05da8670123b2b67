// Notifications: desktop, sound and e-mail, for direct messages and mentions, followed topics and channels;
// and per channel, through the subscription's own properties (null: as the general setting says).
import { useServer } from '../../data/hooks';
import type { Subscription } from '../../api/types';
import { setSetting, setSubscriptionProperty } from '../actions';
import { Check, Choice, Section, Status, Toggle, useRequest } from '../controls';

const PER_CHANNEL: [string, string, string][] = [
  ['desktop_notifications', 'enable_stream_desktop_notifications', 'Desktop'],
  ['audible_notifications', 'enable_stream_audible_notifications', 'Sound'],
  ['email_notifications', 'enable_stream_email_notifications', 'E-mail'],
  ['push_notifications', 'enable_stream_push_notifications', 'Mobile'],
];

export default function Notifications() {
  const settings = useServer((s) => s.settings);
  const subs = useServer((s) => s.subs);
  const [outcome, run] = useRequest();
  const toggle = (name: string, label: string) => <Toggle label={label} checked={!!settings[name]} onChange={(v) => run(setSetting(name, v))} />;
  const sounds = (settings.available_notification_sounds as string[] | undefined) ?? [];
  const list = [...subs.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Direct messages and mentions">
        {toggle('enable_desktop_notifications', 'Desktop notifications')}
        {toggle('enable_sounds', 'Sound')}
        {toggle('pm_content_in_desktop_notifications', 'Show the message in desktop notifications')}
        {toggle('enable_offline_email_notifications', 'E-mail me when I’m away')}
        {toggle('enable_offline_push_notifications', 'Mobile notifications')}
        {toggle('wildcard_mentions_notify', 'Notify me of @all and @channel mentions')}
        {sounds.length > 0 && (
          <Choice id="notification-sound" label="Sound to play" value={String(settings.notification_sound ?? 'zulip')} options={sounds.map((x): [string, string] => [x, x[0].toUpperCase() + x.slice(1)])} onChange={(v) => run(setSetting('notification_sound', v))} />
        )}
      </Section>
      <Section title="Followed topics">
        {toggle('enable_followed_topic_desktop_notifications', 'Desktop notifications')}
        {toggle('enable_followed_topic_audible_notifications', 'Sound')}
        {toggle('enable_followed_topic_email_notifications', 'E-mail')}
        {toggle('enable_followed_topic_push_notifications', 'Mobile notifications')}
      </Section>
      <Section title="E-mail">
        {toggle('message_content_in_email_notifications', 'Include the message in e-mail notifications')}
        {toggle('enable_digest_emails', 'Send me digests of what I missed')}
        {toggle('enable_login_emails', 'E-mail me when my account is logged into')}
        <Choice id="email-batching" label="Wait before e-mailing me" value={Number(settings.email_notifications_batching_period_seconds ?? 120)}
          options={[[120, '2 minutes'], [300, '5 minutes'], [600, '10 minutes'], [1800, '30 minutes'], [3600, '1 hour'], [86400, '1 day']]}
          onChange={(v) => run(setSetting('email_notifications_batching_period_seconds', v))} />
      </Section>
      <Section title="Channels" note="Every channel follows the general setting unless you change it here.">
        <table className="settings-table channel-notifications">
          <thead><tr><th scope="col">Channel</th>{PER_CHANNEL.map(([, , label]) => <th key={label} scope="col">{label}</th>)}<th scope="col">Muted</th></tr></thead>
          <tbody>
            <tr className="defaults"><th scope="row">All channels</th>{PER_CHANNEL.map(([, global, label]) => (
              <td key={label}><Check label={`${label}: all channels`} checked={!!settings[global]} onChange={(v) => run(setSetting(global, v))} /></td>
            ))}<td /></tr>
            {list.map((c) => (
              <tr key={c.stream_id}>
                <th scope="row">#{c.name}</th>
                {PER_CHANNEL.map(([prop, global, label]) => {
                  const own = (c as Subscription & Record<string, unknown>)[prop] as boolean | null | undefined;
                  return <td key={prop}><Check label={`${label}: ${c.name}`} checked={own ?? !!settings[global]} onChange={(v) => run(setSubscriptionProperty(c.stream_id, prop, v))} /></td>;
                })}
                <td><Check label={`Mute ${c.name}`} checked={c.is_muted} onChange={(v) => run(setSubscriptionProperty(c.stream_id, 'is_muted', v))} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}
