// Module hooks of the probe: tell the main thread when the encoder's package is loaded.
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, nextLoad) {
  if (url.includes('@energetic-ai/embeddings')) port.postMessage('encoder loaded');
  return nextLoad(url, context);
}
