// Stands in for @energetic-ai/embeddings in the encoder thread's tests: a model that loads at once and
// embeds a text as [its length, its first character's code], failing on the text "fail".
exports.initModel = async (source) => {
  if (source.broken) throw new Error('the weights are unreadable');
  return {
    embed: async (texts) => {
      if (texts.includes('fail')) throw new Error('cannot embed "fail"');
      return texts.map((text) => [text.length, text.charCodeAt(0)]);
    },
  };
};
