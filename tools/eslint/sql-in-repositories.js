// local/sql-in-repositories: SQL is written in *.repository.ts only (docs/CODE_STYLE.md §16). Where the
// rule is on (eslint.config.js: apps/server/src minus repositories, db/**, seed/** and tests) a file
// has no value import from drizzle-orm (types are fine), no sql`…` template, and no string or
// template that starts with a SQL statement.

/**
 * The statements, upper case as the code writes SQL, each with enough of its shape that an English
 * message ('COPY read another number of rows', 'CREATE') does not match. A template's `${…}` parts
 * read as `$x`.
 */
const NAME = String.raw`[\w."$\[\]]+`;
export const SQL_STATEMENT = new RegExp(
  '^\\s*(?:' +
    [
      String.raw`SELECT\s+\S`,
      String.raw`INSERT\s+INTO\s`,
      String.raw`UPDATE\s+(?:ONLY\s+)?${NAME}\s+(?:(?:AS\s+)?\w+\s+)?SET\s`,
      String.raw`DELETE\s+FROM\s`,
      String.raw`WITH\s+(?:RECURSIVE\s+)?${NAME}\s*(?:\([^)]*\)\s*)?AS\b`,
      String.raw`COPY\s+(?:\(|${NAME}\s*(?:\([^)]*\)\s*)?(?:FROM|TO)\b)`,
      String.raw`TRUNCATE\s+(?:TABLE\s+)?${NAME}`,
      String.raw`CREATE\s+(?:(?:OR\s+REPLACE|UNIQUE|TEMP|TEMPORARY|UNLOGGED|MATERIALIZED)\s+)*(?:TABLE|INDEX|VIEW|SCHEMA|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|TYPE|EXTENSION|DATABASE|ROLE|POLICY|DOMAIN|AGGREGATE|RULE)\b`,
      String.raw`ALTER\s+(?:TABLE|INDEX|VIEW|SCHEMA|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|TYPE|EXTENSION|DATABASE|ROLE|POLICY|DOMAIN|MATERIALIZED\s+VIEW)\b`,
      String.raw`LOCK\s+(?:TABLE\b|${NAME}\s+IN\b)`,
    ].join('|') +
    ')',
);

/** drizzle-orm's error classes (`instanceof DrizzleQueryError`) build no SQL. */
const HARMLESS = new Set(['drizzle-orm/errors']);
const isDrizzle = (source) => (source === 'drizzle-orm' || source.startsWith('drizzle-orm/')) && !HARMLESS.has(source);
const isSqlTag = (node) => {
  const tag = node.tag.type === 'MemberExpression' ? node.tag.property : node.tag;
  return tag.type === 'Identifier' && tag.name === 'sql';
};
const isTypeOnly = (node) =>
  node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.type === 'ImportSpecifier' && specifier.importKind === 'type'));

export default {
  meta: {
    type: 'problem',
    docs: { description: 'SQL only in *.repository.ts: no drizzle-orm values, no sql`…`, no SQL strings elsewhere in the server.' },
    schema: [],
    messages: {
      drizzle: "A value import from '{{source}}' builds SQL: queries belong in a *.repository.ts (a type import, `import type`, is fine here).",
      tag: 'sql`…` builds SQL: move the query into a *.repository.ts and call it from here.',
      text: 'This text is a SQL statement ({{start}}…): SQL belongs in a *.repository.ts; move the query there and call it from here.',
    },
  },
  create(context) {
    const checkText = (node, text) => {
      if (SQL_STATEMENT.test(text)) context.report({ node, messageId: 'text', data: { start: text.trim().split(/\s+/).slice(0, 2).join(' ') } });
    };
    return {
      ImportDeclaration(node) {
        if (isDrizzle(node.source.value) && !isTypeOnly(node)) context.report({ node, messageId: 'drizzle', data: { source: node.source.value } });
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string' && isDrizzle(node.source.value)) {
          context.report({ node, messageId: 'drizzle', data: { source: node.source.value } });
        }
      },
      ExportNamedDeclaration(node) {
        if (node.source && isDrizzle(node.source.value) && node.exportKind !== 'type') context.report({ node, messageId: 'drizzle', data: { source: node.source.value } });
      },
      TaggedTemplateExpression(node) {
        // One report per query: not again for the sql`…` pieces inside it.
        if (isSqlTag(node) && !context.sourceCode.getAncestors(node).some((above) => above.type === 'TaggedTemplateExpression' && isSqlTag(above))) {
          context.report({ node, messageId: 'tag' });
        }
      },
      Literal(node) {
        if (typeof node.value !== 'string') return;
        const parent = node.parent;
        // Module names are not queries.
        if (parent && (parent.type === 'ImportDeclaration' || parent.type === 'ExportNamedDeclaration' || parent.type === 'ExportAllDeclaration' || parent.type === 'ImportExpression')) return;
        checkText(node, node.value);
      },
      TemplateLiteral(node) {
        if (node.parent?.type === 'TaggedTemplateExpression' && node.parent.quasi === node && isSqlTag(node.parent)) return; // reported as a tag
        checkText(node, node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('$x'));
      },
    };
  },
};
