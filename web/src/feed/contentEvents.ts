// Clicks and keys inside message HTML, handled once for the whole page: spoilers open and close, image previews
// open in the lightbox.
import { setUi } from '../app/ui';

function toggleSpoiler(header: HTMLElement): void {
  const block = header.closest('.spoiler-block');
  if (!block) return;
  const open = block.classList.toggle('spoiler-open');
  header.setAttribute('aria-expanded', String(open));
  block.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
}

export function installContentEvents(): void {
  document.addEventListener('click', (e) => {
    const target = e.target as HTMLElement;
    const header = target.closest<HTMLElement>('.rendered_markdown .spoiler-header');
    if (header && !target.closest('a')) {
      e.preventDefault();
      toggleSpoiler(header);
      return;
    }
    const preview = target.closest<HTMLAnchorElement>('.message_inline_image a');
    const img = preview?.querySelector('img');
    if (preview && img && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault();
      setUi({ overlay: { kind: 'lightbox', src: img.currentSrc || img.src, title: preview.title || img.alt, href: preview.href } });
    }
  });
  document.addEventListener('keydown', (e) => {
    const header = (e.target as HTMLElement).closest?.<HTMLElement>('.rendered_markdown .spoiler-header');
    if (header && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      e.stopPropagation();
      toggleSpoiler(header);
    }
  }, true);
}
