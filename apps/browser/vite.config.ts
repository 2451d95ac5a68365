import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { chatRoutePlugin } from './server/chat-route-plugin.js';

const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Two pages: the client in the page (index.html) and an agent chat through a server route (chat.html).
export default defineConfig({
  plugins: [chatRoutePlugin()],
  build: { rollupOptions: { input: { main: page('index.html'), chat: page('chat.html') } } },
});
