import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import RunSnippet from './RunSnippet.vue';
import './style.css';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('RunSnippet', RunSnippet);
  },
} satisfies Theme;
