/**
 * `@dataworkz/emulator/sentence-encoder`: the sentence encoder the emulator ranks with, for tools that
 * compare texts by meaning (the CLI's `qna eval --similarity`). Apart from the package's main entry so
 * that importing it loads nothing: the encoder's code and weights load on the first `loadSentenceEncoder()`.
 *
 * @packageDocumentation
 */
export { loadSentenceEncoder, type SentenceEncoder } from './encoder-loader.js';
