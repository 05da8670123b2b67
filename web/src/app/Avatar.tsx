// A person's picture when they uploaded one (served by this server), else their initials on a colour of their
// own: default avatars are Gravatar's, which the app does not load (another site, and often no network to it).
import { memo } from 'react';
import { useServer } from '../data/hooks';
import './avatar.css';

const COLORS = ['#b45309', '#047857', '#1d4ed8', '#7c3aed', '#be185d', '#0e7490', '#4d7c0f', '#9f1239', '#1e40af', '#6d28d9'];

export function initials(name: string): string {
  const words = name.replace(/[^\p{L}\p{N} ]/gu, ' ').trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  return (words.length === 1 ? words[0].slice(0, 2) : words[0][0] + words[words.length - 1][0]).toUpperCase();
}

export const Avatar = memo(function Avatar({ userId, size = 36, name }: { userId: number; size?: number; name?: string }) {
  const user = useServer((s) => s.users.get(userId));
  const fullName = user?.full_name ?? name ?? '?';
  const url = user?.avatar_url;
  if (url && url.startsWith('/')) {
    return <img className="avatar" src={url} alt="" width={size} height={size} loading="lazy" decoding="async" />;
  }
  return (
    <span className={`avatar initials s${size}`} aria-hidden="true" style={{ background: COLORS[userId % COLORS.length] }}>
      {initials(fullName)}
    </span>
  );
});
