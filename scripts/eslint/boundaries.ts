import { dirname, relative, resolve, sep } from 'node:path';
import type { Rule } from 'eslint';
import { layerOf, rank, serverPath } from './server-layers.ts';

// Import boundaries (code-style habit 9), enforced by lint:
// - a web feature (apps/web/src/features/<name>) never imports another feature;
// - a server module (apps/server/src/modules/<name>) reaches another module only through its public
//   files (service, policy, presenter, the access model, a call log record's details), never its repository or
//   routes.
// - a server file never imports a file of a higher layer (server-layers.ts: foundation → repositories → services →
//   plugins → routes → app), type-only imports included; plugins and routes reach repositories through services.
// Paths are resolved from the importing file, so `../../users/api/x.ts` is caught whatever its depth.

const WEB_FEATURES = ['apps', 'web', 'src', 'features'];
const SERVER_MODULES = ['apps', 'server', 'src', 'modules'];
const SERVER_PUBLIC =
  /^(service|policy|presenter|access-model|audit|provisioning|route-access|call-details)\.ts$|\.service\.ts$/;

function areaOf(root: string, file: string, prefix: string[]) {
  const parts = relative(root, file).split(sep);
  for (let i = 0; i < prefix.length; i += 1) if (parts[i] !== prefix[i]) return undefined;
  const name = parts[prefix.length];
  return name && parts.length > prefix.length + 1 ? { name, rest: parts.slice(prefix.length + 1) } : undefined;
}

const featureBoundaries: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'features and modules import each other only through their public files' },
    messages: {
      crossFeature: "Feature '{{from}}' must not import feature '{{to}}': move shared code to components/ or lib/.",
      privateModule: "Module '{{from}}' must not import '{{file}}' of module '{{to}}': call its service instead.",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const check = (node: { source?: unknown }) => {
      const literal = node.source as { type?: string; value?: unknown } | null | undefined;
      const source = literal?.type === 'Literal' ? literal.value : undefined;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = resolve(dirname(file), source);
      const fromFeature = areaOf(root, file, WEB_FEATURES);
      const toFeature = areaOf(root, target, WEB_FEATURES);
      if (fromFeature && toFeature && fromFeature.name !== toFeature.name) {
        context.report({
          node: literal as Rule.Node,
          messageId: 'crossFeature',
          data: { from: fromFeature.name, to: toFeature.name },
        });
      }
      const fromModule = areaOf(root, file, SERVER_MODULES);
      const toModule = areaOf(root, target, SERVER_MODULES);
      if (fromModule && toModule && fromModule.name !== toModule.name) {
        const targetFile = toModule.rest.at(-1) ?? '';
        if (!SERVER_PUBLIC.test(targetFile)) {
          context.report({
            node: literal as Rule.Node,
            messageId: 'privateModule',
            data: { from: fromModule.name, to: toModule.name, file: targetFile },
          });
        }
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: (node) => check({ source: node.source }),
    };
  },
};

const serverLayers: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'a server file imports only its own layer or lower ones' },
    messages: {
      upward:
        "'{{from}}' ({{fromLayer}}) must not import '{{to}}' ({{toLayer}}): a layer imports only its own or lower ones (docs/architecture.md, Layers).",
      pastServices:
        "'{{from}}' ({{fromLayer}}) must not import the repository '{{to}}': call the module's service instead.",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const fromPath = serverPath(root, context.filename);
    const fromLayer = fromPath && layerOf(fromPath);
    if (!fromPath || !fromLayer) return {};
    const check = (node: { source?: unknown }) => {
      const literal = node.source as { type?: string; value?: unknown } | null | undefined;
      const source = literal?.type === 'Literal' ? literal.value : undefined;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const toPath = serverPath(root, resolve(dirname(context.filename), source));
      const toLayer = toPath && layerOf(toPath);
      if (!toPath || !toLayer) return;
      const upward = rank(toLayer) > rank(fromLayer);
      // Plugins and routes reach the store through services; only services (and the app's seed and tests) hold SQL.
      const pastServices = toLayer === 'repositories' && (fromLayer === 'plugins' || fromLayer === 'routes');
      if (!upward && !pastServices) return;
      context.report({
        node: literal as Rule.Node,
        messageId: upward ? 'upward' : 'pastServices',
        data: { from: fromPath.join('/'), fromLayer, to: toPath.join('/'), toLayer },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: (node) => check({ source: node.source }),
    };
  },
};

/** Kysely's ways into a statement; a repository (or db/) holds them, services call the repository. */
const QUERY_STARTS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'withRecursive',
]);

const serverSql: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: "server services, plugins and routes hold no SQL: it lives in the modules' repositories" },
    messages: {
      query: "'{{from}}' ({{fromLayer}}) builds a query ({{what}}): move it into the module's repository.",
    },
    schema: [],
  },
  create(context) {
    const fromPath = serverPath(context.cwd, context.filename);
    const fromLayer = fromPath && layerOf(fromPath);
    if (!fromPath) return {};
    if (fromLayer !== 'services' && fromLayer !== 'plugins' && fromLayer !== 'routes') return {};
    const report = (node: Rule.Node, what: string) =>
      context.report({ node, messageId: 'query', data: { from: fromPath.join('/'), fromLayer, what } });
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        if (QUERY_STARTS.has(callee.property.name)) report(node, `.${callee.property.name}()`);
      },
      TaggedTemplateExpression(node) {
        if (node.tag.type === 'Identifier' && node.tag.name === 'sql') report(node, 'sql`…`');
      },
    };
  },
};

export default {
  rules: { 'feature-boundaries': featureBoundaries, 'server-layers': serverLayers, 'server-sql': serverSql },
};
