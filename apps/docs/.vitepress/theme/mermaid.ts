import type { Mermaid } from 'mermaid';
import { withBase } from 'vitepress';

// Mermaid's prebuilt ES module build, copied into the site by the config (not bundled): imported
// on the first diagram a reader meets, once per page load.
let loading: Promise<Mermaid> | undefined;
let count = 0;

function mermaid(): Promise<Mermaid> {
  loading ??= import(/* @vite-ignore */ withBase('/mermaid/mermaid.esm.min.mjs')).then(
    (module: { default: Mermaid }) => module.default,
  );
  return loading;
}

/** The diagram as SVG, in the site's light or dark theme. */
export async function renderMermaid(graph: string, dark: boolean): Promise<string> {
  const api = await mermaid();
  api.initialize({ startOnLoad: false, securityLevel: 'strict', theme: dark ? 'dark' : 'default' });
  const { svg } = await api.render(`mermaid-${++count}`, graph);
  return svg;
}
