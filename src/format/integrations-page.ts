// The integrations page (src/routes/integrations.ts): a plain GET form (bot, channel) and, once chosen, each
// integration's URL. No script: the answer to the form is the page itself.
import { escapeHtml } from '../lib/text.js';
import { page } from './pages.js';

export interface IntegrationsView {
  bots: { id: number; name: string }[];
  channels: string[];
  chosen: { botId: number; channel: string } | null;
  urls: { name: string; displayName: string; events: readonly string[]; url: string; header?: string }[];
}

const WIDE = '<style>main{max-width:52rem}select{width:100%;padding:.4rem;font-size:1rem}section{margin-top:1.5rem}code{display:block;background:#f3f3f3;padding:.5rem;border-radius:4px}</style>';

export function integrationsPage(realmName: string, v: IntegrationsView): string {
  const option = (value: string, label: string, selected: boolean) => `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const form = v.bots.length
    ? `<form method="get" action="/integrations/">
<label for="bot">Incoming-webhook bot</label>
<select id="bot" name="bot">${v.bots.map((b) => option(String(b.id), b.name, v.chosen?.botId === b.id)).join('')}</select>
<label for="stream">Channel</label>
<input id="stream" name="stream" list="channels" required value="${escapeHtml(v.chosen?.channel ?? '')}">
<datalist id="channels">${v.channels.map((c) => option(c, c, false)).join('')}</datalist>
<button type="submit">Show the URLs</button>
</form>`
    : '<p>There is no incoming-webhook bot yet: create one (bot type "Incoming webhook") in the settings, then come back.</p>';
  const urls = v.urls.map((u) => `<section id="${escapeHtml(u.name)}">
<h2>${escapeHtml(u.displayName)}</h2>
<code>${escapeHtml(u.url)}</code>
<p>Events: ${u.events.map(escapeHtml).join(', ')}.${u.header ? ` The tool names the event in its <code style="display:inline">${escapeHtml(u.header)}</code> header.` : ''} Add <code style="display:inline">&amp;topic=…</code> to post every event in one topic.</p>
</section>`).join('\n');
  return page(`Integrations · ${realmName}`, `${WIDE}<h1>Integrations</h1>
<p>Paste an integration's URL into the tool's webhook settings: the bot then posts its events in the channel.</p>
${form}
${urls}`);
}
