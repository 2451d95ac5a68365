// Module hooks of the probe: tell the main thread when @a2a-js/sdk or MiniSearch (the search index) is loaded.
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, nextLoad) {
  if (url.includes('@a2a-js/sdk') || url.includes('@a2a-js+sdk')) port.postMessage('sdk');
  if (url.includes('/minisearch')) port.postMessage('index');
  return nextLoad(url, context);
}
