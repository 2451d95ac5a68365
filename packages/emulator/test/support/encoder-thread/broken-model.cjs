// A model source fake-embeddings.cjs cannot load.
exports.modelSource = { broken: true };
