export { DOCUMENT_URI_TEMPLATE, documentUri } from './document-uri.js';
export { type Exposure, resolveExposure } from './exposure.js';
export { createDataworkzMcpServer, type DataworkzMcpServerOptions, TOOL_NAMES } from './server.js';
export { type HttpServer, type HttpServerOptions, startHttpServer } from './transports/http.js';
export { serveStdio } from './transports/stdio.js';
