// Light or dark: the user's color_scheme (1 automatic, 2 dark, 3 light), automatic following the system's.
import { server } from '../data/session';

const media = window.matchMedia('(prefers-color-scheme: dark)');

function apply(): void {
  const scheme = server.get()?.settings.color_scheme ?? 1;
  const dark = scheme === 2 || (scheme !== 3 && media.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function startTheme(): void {
  media.addEventListener('change', apply);
  server.subscribe(apply);
  apply();
}
