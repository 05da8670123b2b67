// The web app's build (`npm run build` → dist/web/, served by the server at / and /static/) and its development
// server (`npm run dev:web`), which sends the API and the login pages to a running Parlance server.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { emojiGroups } from './build/emoji-groups.ts';

const backend = process.env.PARLANCE_DEV_BACKEND ?? 'http://127.0.0.1:9991';
const proxied = ['/json', '/login', '/accounts', '/static/login.js', '/user_uploads', '/avatar', '/user_avatars', '/join'];

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  base: command === 'build' ? '/static/' : '/',
  plugins: [react(), emojiGroups()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    // Initial JavaScript stays small: heavy parts are separate chunks loaded when first needed.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: false }])),
  },
}));
