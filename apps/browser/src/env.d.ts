/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Prefills the base URL field during development. */
  readonly VITE_DATAWORKZ_BASE_URL?: string;
}
