// A list of rows of varying height of which only those near the viewport are in the DOM. Heights are measured
// as rows mount (estimated before), and one row — the anchor — keeps its place on screen whatever changes above
// it: pages of older messages, images loading, rows measured taller than their estimate. At the bottom, the
// list stays at the bottom as rows arrive. It renders only when the set of rows to show changes: scrolling within
// the rendered rows, and rows whose height is already known, cost no render.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { relayout, visibleRange, type Layout } from './layout';

export interface ScrollRequest {
  key: number;
  align: 'start' | 'center' | 'nearest' | 'end';
  seq: number; // a new request each time, even for the same row
}

export interface VirtualListProps<T> {
  items: T[];
  keyOf(item: T): number;
  estimate(item: T, index: number): number;
  render(item: T, index: number): ReactNode;
  header?: ReactNode;
  footer?: ReactNode;
  scrollRequest?: ScrollRequest;
  // Called after scrolling settles (and after renders): the rows now fully visible.
  onViewport?(visible: number[]): void;
  // Called as the list scrolls (and after renders): whether either end is near, to load more before it shows.
  onEnds?(nearTop: boolean, nearBottom: boolean): void;
  className?: string;
  label?: string;
}

const OVERSCAN_PX = 800;
const MAX_ROWS = 150; // whatever the viewport, the DOM holds at most this many rows
const NEAR_END_PX = 1200;

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, keyOf, estimate, render } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<number, number>());
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  const view = useRef({ top: 0, height: 800 }); // the scroller's position, kept without rendering
  const headerHeight = useRef(0);
  const shown = useRef<[number, number]>([0, -1]); // the rows rendered
  const anchor = useRef<{ key: number; offset: number } | null>(null);
  const atBottom = useRef(false);
  const rowEls = useRef(new Map<number, HTMLElement>());
  const observer = useRef<ResizeObserver | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const endsTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const headerRef = useRef<HTMLDivElement>(null);

  const keys = useMemo(() => items.map(keyOf), [items, keyOf]);
  // Positions are recomputed only from the first row that changed (new rows come at the end, heights change
  // among the rows shown): a long list costs little per change.
  const cache = useRef<Layout | null>(null);
  const dirtyFrom = useRef(0);
  const tops = useMemo(() => {
    const next = relayout(cache.current, keys, dirtyFrom.current, (i) => heights.current.get(keys[i]) ?? estimate(items[i], i));
    cache.current = next;
    dirtyFrom.current = Number.MAX_SAFE_INTEGER;
    return next.tops;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keys, items, version]);
  const topsRef = useRef(tops);
  topsRef.current = tops;
  const rangeFor = (t: Float64Array) => visibleRange(t, view.current.top - headerHeight.current - OVERSCAN_PX, view.current.top - headerHeight.current + view.current.height + OVERSCAN_PX, MAX_ROWS);
  const [first, last] = rangeFor(tops);
  shown.current = [first, last];

  // Renders again only if the rows to show changed.
  const refresh = useCallback(() => {
    const [f, l] = rangeFor(topsRef.current);
    if (f !== shown.current[0] || l !== shown.current[1]) bump();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Heights that change after mounting (images loading, a spoiler opened) re-lay the list out.
  useEffect(() => {
    observer.current = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        const key = Number(el.dataset.key);
        const h = el.offsetHeight;
        if (h && heights.current.get(key) !== h) {
          heights.current.set(key, h);
          changed = true;
        }
      }
      if (changed) {
        dirtyFrom.current = Math.min(dirtyFrom.current, shown.current[0]);
        bump();
      }
    });
    return () => observer.current?.disconnect();
  }, []);

  // One ref callback per row key, so that re-renders do not detach and re-attach every row.
  const refs = useRef(new Map<number, (el: HTMLElement | null) => void>());
  const refFor = (key: number) => {
    let fn = refs.current.get(key);
    if (!fn) {
      fn = (el: HTMLElement | null) => {
        const old = rowEls.current.get(key);
        if (old && old !== el) observer.current?.unobserve(old);
        if (el) {
          rowEls.current.set(key, el);
          observer.current?.observe(el);
        } else {
          rowEls.current.delete(key);
          refs.current.delete(key);
        }
      };
      refs.current.set(key, fn);
    }
    return fn;
  };

  const viewportTop = () => scroller.current!.getBoundingClientRect().top;

  // The first row whose bottom is below the viewport's top: it keeps its place through layout changes.
  const takeAnchor = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
    if (atBottom.current) return; // the bottom is the anchor
    const top = viewportTop();
    let best: { key: number; offset: number } | null = null;
    for (const [key, row] of rowEls.current) {
      const r = row.getBoundingClientRect();
      if (r.bottom > top + 1 && (!best || r.top - top < best.offset)) best = { key, offset: r.top - top };
    }
    anchor.current = best;
  }, []);

  const reportViewport = useCallback(() => {
    const el = scroller.current;
    if (!el || !props.onViewport) return;
    const top = viewportTop();
    const bottom = top + el.clientHeight;
    const visible: number[] = [];
    for (const [key, row] of rowEls.current) {
      const r = row.getBoundingClientRect();
      // Fully visible, or taller than the viewport and covering it.
      if ((r.top >= top - 2 && r.bottom <= bottom + 2) || (r.top <= top && r.bottom >= bottom)) visible.push(key);
    }
    props.onViewport(visible.sort((a, b) => a - b));
  }, [props]);

  const reportEnds = () => {
    const el = scroller.current;
    if (el && props.onEnds) props.onEnds(el.scrollTop < NEAR_END_PX, el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX);
  };

  const settle = () => {
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(reportViewport, 120);
  };

  const onScroll = () => {
    const el = scroller.current!;
    takeAnchor();
    view.current = { top: el.scrollTop, height: el.clientHeight };
    refresh();
    reportEnds();
    settle();
  };

  useEffect(() => {
    const el = scroller.current!;
    const header = headerRef.current!;
    const ro = new ResizeObserver(() => {
      view.current = { top: el.scrollTop, height: el.clientHeight };
      headerHeight.current = header.offsetHeight;
      refresh();
    });
    ro.observe(el);
    ro.observe(header);
    return () => ro.disconnect();
  }, [refresh]);

  // After every render: rows just mounted are measured now (not a frame later), then the anchor row goes back
  // where it was, or the list back to its bottom — before the browser paints.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let measured = false;
    for (const [key, row] of rowEls.current) {
      if (heights.current.has(key)) continue;
      const h = row.offsetHeight;
      if (h) {
        heights.current.set(key, h);
        measured = true;
      }
    }
    if (atBottom.current) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (el.scrollTop < bottom - 1) el.scrollTop = bottom;
    } else if (anchor.current) {
      const row = rowEls.current.get(anchor.current.key);
      if (row) {
        const delta = row.getBoundingClientRect().top - viewportTop() - anchor.current.offset;
        if (Math.abs(delta) > 0.5) el.scrollTop += delta;
      } else {
        // Out of the rows rendered (many came in above it): placed by its computed position; the next render
        // shows it and corrects by its measured one.
        const index = keys.indexOf(anchor.current.key);
        if (index >= 0) el.scrollTop = tops[index] + headerHeight.current - anchor.current.offset;
      }
    }
    view.current = { top: el.scrollTop, height: el.clientHeight };
    if (measured) {
      dirtyFrom.current = Math.min(dirtyFrom.current, shown.current[0]);
      bump();
    } else refresh();
    reportEnds();
    // Again once the current work is over: a page that just arrived may have been "loading" a moment ago.
    clearTimeout(endsTimer.current);
    endsTimer.current = setTimeout(reportEnds, 50);
    settle();
  });

  // Scrolling to a row (opening at a message, keyboard selection): placed by its computed position, then held
  // there as the anchor while the rows around it are measured.
  useLayoutEffect(() => {
    const req = props.scrollRequest;
    const el = scroller.current;
    if (!req || !el) return;
    const index = keys.indexOf(req.key);
    if (index < 0) return;
    const rowTop = tops[index] + headerHeight.current;
    const rowHeight = tops[index + 1] - tops[index];
    const vh = el.clientHeight;
    let target = el.scrollTop;
    if (req.align === 'start') target = rowTop - 8;
    else if (req.align === 'center') target = rowTop - vh / 3;
    else if (rowTop < el.scrollTop + 8) target = rowTop - 8;
    else if (rowTop + rowHeight > el.scrollTop + vh - 8) target = Math.min(rowTop - 8, rowTop + rowHeight - vh + 8);
    if (req.align === 'end') {
      atBottom.current = true;
      el.scrollTop = el.scrollHeight;
    } else {
      el.scrollTop = Math.max(0, target);
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 4;
      anchor.current = atBottom.current ? null : { key: req.key, offset: rowTop - el.scrollTop };
    }
    view.current = { top: el.scrollTop, height: vh };
    bump();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.scrollRequest?.seq]);

  // Rows gone from the list forget their heights (the list of a long session stays small).
  useEffect(() => {
    if (heights.current.size > keys.length * 2 + 500) {
      const live = new Set(keys);
      for (const k of heights.current.keys()) if (!live.has(k)) heights.current.delete(k);
    }
  }, [keys]);

  const topSpace = first < keys.length ? tops[first] : tops[keys.length];
  const bottomSpace = tops[keys.length] - tops[Math.min(last + 1, keys.length)];
  const rows: ReactNode[] = [];
  for (let i = first; i <= last && i < items.length; i++) {
    const key = keys[i];
    rows.push(
      <div key={key} data-key={key} ref={refFor(key)} className="vrow">
        {render(items[i], i)}
      </div>,
    );
  }
  return (
    <div ref={scroller} className={`vlist ${props.className ?? ''}`} onScroll={onScroll} role="log" aria-label={props.label} tabIndex={-1}>
      <div ref={headerRef}>{props.header}</div>
      <div style={{ height: topSpace }} aria-hidden="true" />
      {rows}
      <div style={{ height: bottomSpace }} aria-hidden="true" />
      {props.footer}
    </div>
  );
}
