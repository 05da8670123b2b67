// `?`: every keyboard shortcut.
import { useEffect, useRef } from 'react';
import { SHORTCUTS } from './keys';

export default function HelpOverlay({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal help" role="dialog" aria-modal="true" aria-labelledby="help-title" onKeyDown={(e) => (e.key === 'Escape' || e.key === '?') && (e.preventDefault(), onClose())}>
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map(([what, keys]) => (
              <tr key={what}>
                <td>{what}</td>
                <td>{keys.map((k, i) => <span key={k}>{i > 0 && ' or '}<kbd>{k}</kbd></span>)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="actions"><button ref={ref} type="button" className="button primary" onClick={onClose}>Close</button></div>
      </div>
    </div>
  );
}
