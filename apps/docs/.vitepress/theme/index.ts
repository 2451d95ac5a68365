import type { Theme } from 'vitepress';
import DefaultTheme from 'vitepress/theme';
import MermaidDiagram from './MermaidDiagram.vue';
import RunSnippet from './RunSnippet.vue';
import './style.css';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('RunSnippet', RunSnippet);
    app.component('MermaidDiagram', MermaidDiagram);
  },
} satisfies Theme;
