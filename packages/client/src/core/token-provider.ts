/** Called before each request; `refresh` is true after a 401, when a cached token should be renewed. */
export type TokenProvider = (context: { refresh: boolean }) => string | Promise<string>;
