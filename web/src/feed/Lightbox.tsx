// An image at full size over the app; Esc or a click outside closes it.
import { useEffect, useRef } from 'react';

export default function Lightbox({ src, title, href, onClose }: { src: string; title: string; href: string; onClose(): void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="lightbox" role="dialog" aria-modal="true" aria-label={title || 'Image'} onKeyDown={(e) => e.key === 'Escape' && onClose()}
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="lightbox-bar">
        <span className="lightbox-title">{title}</span>
        <a className="button" href={href} target="_blank" rel="noopener noreferrer">Open original</a>
        <a className="button" href={href} download>Download</a>
        <button ref={ref} type="button" className="button" onClick={onClose} aria-label="Close">✕</button>
      </div>
      <img src={src} alt={title} onMouseDown={(e) => e.stopPropagation()} />
    </div>
  );
}
