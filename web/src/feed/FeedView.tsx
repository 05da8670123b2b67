// A message view: loads its narrow's list (opening at the first unread message, or the linked one), shows it
// virtualized, loads older and newer pages at the ends, marks messages read as they are seen (per the user's
// setting), and answers the keyboard's moves through its controller.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Message } from '../api/types';
import { markRead, outbox } from '../data/actions';
import { isLoading, loadMessages } from '../data/fetch';
import { useServer, useStore, useUi } from '../data/hooks';
import { isConversation, matches, narrowKey, type Term } from '../data/narrow';
import { select, setUi, ui } from '../app/ui';
import { onReload, server } from '../data/session';
import { buildRows, estimateRow, type Row } from './rows';
import { MessageRow } from './MessageRow';
import { VirtualList, type ScrollRequest } from './VirtualList';
import { Pending, Typing } from './FeedFooter';
import { ViewHeader } from './ViewHeader';
import { feedControl } from './control';
import { readingPaused } from './reading';
import './feed.css';

function targetMatches(terms: Term[], item: { target: { kind: string; streamId?: number; topic?: string; userIds?: number[] } }, me: number): boolean {
  const t = item.target;
  const fake = {
    id: Number.MAX_SAFE_INTEGER, sender_id: me, type: t.kind === 'stream' ? 'stream' : 'private', stream_id: t.streamId, subject: t.topic ?? '',
    display_recipient: t.kind === 'dm' ? [...(t.userIds ?? []), me].map((id) => ({ id, email: '', full_name: '' })) : '', flags: ['read'],
  } as unknown as Message;
  return matches(terms, fake, { me }) !== false;
}

export function FeedView({ terms, near }: { terms: Term[]; near?: number }) {
  const key = narrowKey(terms);
  const list = useServer((s) => s.lists.get(key));
  const messages = useServer((s) => s.messages);
  const me = useServer((s) => s.me.userId);
  const twentyFour = useServer((s) => s.settings.twenty_four_hour_time);
  const timeZone = useServer((s) => s.settings.timezone || undefined);
  const policy = useServer((s) => s.settings.web_mark_read_on_scroll_policy);
  const selected = useUi((u) => u.selected.get(key));
  const pending = useStore(outbox, (o) => o);
  const [request, setRequest] = useState<ScrollRequest>();
  const [error, setError] = useState<string>();
  const seq = useRef(0);
  const rowCache = useRef(new Map<number, Row>());
  const single = isConversation(terms);
  const search = terms.some((t) => t.operator === 'search');

  const scrollTo = useCallback((id: number, align: ScrollRequest['align']) => setRequest({ key: id, align, seq: ++seq.current }), []);

  // The first page: at the linked message, else the first unread one, else the newest.
  const hasList = !!list;
  useEffect(() => {
    let live = true;
    const load = () => {
      const current = server.get()?.lists.get(key);
      if (current && (near === undefined || current.ids.includes(near))) {
        const sel = near ?? ui.get().selected.get(key);
        if (sel !== undefined && current.ids.includes(sel)) {
          select(key, sel);
          scrollTo(sel, 'center');
        } else if (current.ids.length) {
          select(key, current.ids[current.ids.length - 1]);
          scrollTo(current.ids[current.ids.length - 1], 'end');
        }
        return;
      }
      setError(undefined);
      void loadMessages(terms, 'initial', near ?? ui.get().selected.get(key)).then((res) => {
        if (!live) return;
        if (res.error) return setError(res.error);
        const ids = server.get()?.lists.get(key)?.ids ?? [];
        const at = res.anchor !== undefined && ids.includes(res.anchor) ? res.anchor : undefined;
        if (at !== undefined) {
          select(key, at);
          scrollTo(at, at === ids[ids.length - 1] ? 'end' : 'center');
        } else if (ids.length) {
          select(key, ids[ids.length - 1]);
          scrollTo(ids[ids.length - 1], 'end');
        }
      });
    };
    load();
    const off = onReload(load);
    return () => {
      live = false;
      off();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, near, hasList]);

  const onSelect = useCallback((id: number) => select(key, id), [key]);
  // A view that was empty selects its first message when one arrives (replies then go to its conversation).
  const lastId = list?.ids[list.ids.length - 1];
  // The store's selection, not the render's: the first page's own choice (the linked message) may have been made
  // since this render, and must not be replaced by the newest.
  useEffect(() => {
    if (ui.get().selected.get(key) === undefined && lastId !== undefined) select(key, lastId);
  }, [key, selected, lastId]);
  const rows = useMemo(() => (list ? buildRows(list.ids, messages, me, single, rowCache.current) : []), [list, messages, me, single]);

  // The keyboard's moves, through the controller (keyboard/shortcuts.ts).
  useEffect(() => {
    feedControl.current = {
      terms,
      selected: () => {
        const id = ui.get().selected.get(key);
        return id === undefined ? undefined : server.get()?.messages.get(id);
      },
      move: (delta) => {
        const list = server.get()?.lists.get(key);
        const ids = list?.ids ?? [];
        if (!ids.length) return;
        // Home and End go to the ends of the narrow: fetched from there when not yet loaded.
        if ((delta === 'first' && !list!.foundOldest) || (delta === 'last' && !list!.foundNewest)) {
          void loadMessages(terms, 'initial', delta === 'first' ? 'oldest' : 'newest').then(() => {
            const now = server.get()?.lists.get(key)?.ids ?? [];
            if (!now.length) return;
            const id = delta === 'first' ? now[0] : now[now.length - 1];
            select(key, id);
            scrollTo(id, delta === 'first' ? 'start' : 'end');
          });
          return;
        }
        const cur = ui.get().selected.get(key);
        let i = cur === undefined ? ids.length - 1 : ids.indexOf(cur);
        if (delta === 'first') i = 0;
        else if (delta === 'last') i = ids.length - 1;
        else i = Math.max(0, Math.min(ids.length - 1, (i < 0 ? ids.length - 1 : i) + delta));
        select(key, ids[i]);
        scrollTo(ids[i], delta === 'last' ? 'end' : 'nearest');
        if (policy !== 3 && !readingPaused(key)) markRead([ids[i]]);
      },
      lastOwn: () => {
        const s = server.get();
        const ids = s?.lists.get(key)?.ids ?? [];
        for (let i = ids.length - 1; i >= 0; i--) if (s!.messages.get(ids[i])?.sender_id === s!.me.userId) return s!.messages.get(ids[i]);
        return undefined;
      },
    };
    return () => {
      if (feedControl.current?.terms === terms) feedControl.current = null;
    };
  }, [key, terms, scrollTo, policy]);

  const onEnds = useCallback(
    (nearTop: boolean, nearBottom: boolean) => {
      const l = server.get()?.lists.get(key);
      if (!l) return;
      if (nearTop && !l.foundOldest && !isLoading(terms, 'older')) void loadMessages(terms, 'older');
      if (nearBottom && !l.foundNewest && !isLoading(terms, 'newer')) void loadMessages(terms, 'newer');
    },
    [key, terms],
  );

  const onViewport = useCallback(
    (visible: number[]) => {
      // Reading as you scroll: 1 always, 2 in a single conversation, 3 never; only while the window has focus.
      const reads = (policy === 1 || (policy === 2 && single)) && !readingPaused(key);
      if (reads && document.hasFocus() && !ui.get().overlay) markRead(visible);
    },
    [key, terms, policy, single],
  );

  const mine = pending.filter((p) => targetMatches(terms, p, me));
  const footer = (
    <>
      {list?.foundNewest === false && <div className="list-edge">Loading newer messages…</div>}
      {mine.map((p) => <Pending key={p.localId} item={p} />)}
      <Typing terms={terms} />
      <div className="feed-end" />
    </>
  );
  const header = list && (list.foundOldest ? <div className="list-edge start">{list.ids.length ? 'The beginning of this conversation' : ''}</div> : <div className="list-edge">Loading older messages…</div>);

  let body;
  if (error && !list) body = <div className="empty-state" role="alert"><h2>Could not load messages</h2><p>{error}</p></div>;
  else if (!list) body = <div className="empty-state" aria-busy="true"><p>Loading messages…</p></div>;
  else if (!rows.length && !mine.length) body = <EmptyView terms={terms} />;
  else {
    body = (
      <VirtualList
        items={rows}
        keyOf={rowKey}
        estimate={estimateRow}
        render={(r: Row) => <MessageRow row={r} selected={r.message.id === selected} me={me} twentyFour={twentyFour} timeZone={timeZone} search={search} onSelect={onSelect} />}
        header={header}
        footer={footer}
        scrollRequest={request}
        onViewport={onViewport}
        onEnds={onEnds}
        className="feed"
        label="Messages"
      />
    );
  }
  return (
    <section className="feed-view" aria-label="Message feed">
      <ViewHeader terms={terms} />
      {body}
    </section>
  );
}

const rowKey = (r: Row) => r.message.id;

function EmptyView({ terms }: { terms: Term[] }) {
  const noChannels = useServer((s) => s.subs.size === 0);
  const starred = terms.some((t) => t.operator === 'is' && t.operand === 'starred');
  const mentioned = terms.some((t) => t.operator === 'is' && t.operand === 'mentioned');
  const search = terms.some((t) => t.operator === 'search');
  return (
    <div className="empty-state">
      {starred ? (
        <><h2>No starred messages</h2><p>Star a message (<kbd>*</kbd>) to find it here later.</p></>
      ) : mentioned ? (
        <><h2>No mentions yet</h2><p>Messages that mention you will show up here.</p></>
      ) : search ? (
        <><h2>No messages match</h2><p>Try other words, or fewer operators.</p></>
      ) : noChannels && !terms.length ? (
        <>
          <h2>Welcome!</h2>
          <p>Create a channel for your team's conversations, or write to someone directly (<kbd>x</kbd>).</p>
          <p><button type="button" className="button primary" onClick={() => setUi({ overlay: { kind: 'channels' } })}>Create or join a channel</button></p>
        </>
      ) : (
        <><h2>No messages here yet</h2><p>Start the conversation: press <kbd>c</kbd> for a new topic, or <kbd>x</kbd> for a direct message.</p></>
      )}
    </div>
  );
}
