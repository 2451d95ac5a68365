import { render } from 'preact';
import { App } from './app.js';
import { startLog } from './log-store.js';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  startLog();
  render(<App />, root);
}
