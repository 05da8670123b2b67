// Shown while the live connection is down: when the next try is, and a button to try now.
import { useEffect, useState } from 'react';
import { useStore } from '../data/hooks';
import { connection, retryNow } from '../data/session';

export function ConnectionBanner() {
  const c = useStore(connection, (x) => x);
  const [, tick] = useState(0);
  useEffect(() => {
    if (c.status !== 'reconnecting') return;
    const t = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, [c.status]);
  if (c.status === 'connected' || c.status === 'connecting') return null;
  const seconds = c.status === 'reconnecting' ? Math.max(0, Math.ceil((c.retryAt - Date.now()) / 1000)) : 0;
  return (
    <div className="banner" role="status" aria-live="polite" data-connection={c.status}>
      {c.status === 'reloading' ? (
        <span>Reconnected — reloading the latest messages…</span>
      ) : (
        <>
          <span>{navigator.onLine ? 'Cannot reach the server.' : 'You are offline.'} Reconnecting{seconds ? ` in ${seconds} s` : '…'}</span>
          <button type="button" className="button" onClick={retryNow}>Try now</button>
        </>
      )}
    </div>
  );
}
