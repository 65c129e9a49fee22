// local/disable-needs-reason: `// eslint-disable… rule -- why`: a disable without its reason is an error.
export default {
  meta: { type: 'suggestion', schema: [], messages: { reason: 'Say why beside the disable: `eslint-disable-next-line <rule> -- <reason>`.' } },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value.trim();
          if (/^eslint-disable(-next-line|-line)?\b/.test(text) && !/\s--\s*\S/.test(text)) context.report({ loc: comment.loc, messageId: 'reason' });
        }
      },
    };
  },
};
