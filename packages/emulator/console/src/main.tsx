import { render } from 'preact';
import { App } from './app.js';
import { startLive } from './live.js';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  startLive();
  render(<App />, root);
}
