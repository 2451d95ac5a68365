// Module hooks of the probe: tell the main thread when a module of @a2a-js/sdk is loaded.
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, nextLoad) {
  if (url.includes('@a2a-js/sdk') || url.includes('@a2a-js+sdk')) port.postMessage('sdk loaded');
  return nextLoad(url, context);
}
