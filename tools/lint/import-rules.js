// Imports point one way (docs/explanation/architecture.md#imports-point-one-way): a local ESLint
// plugin with two rules, so the folders by concern (issue 37) stay that way without a new npm
// dependency.
//   tutti/no-parent-folder-import  a file never imports a file lying directly in one of its
//                                  ancestor folders (a child does not reach up to its parent's
//                                  files; a sibling folder's file, ../sibling/x.js, is fine)
//   tutti/no-import-cycle          no chain of static imports leads from a file back to itself
// Both read static imports and re-exports (`import … from`, `export … from`, `import '…'`);
// import() and JSDoc type imports are not followed: neither runs a module at load time.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package.json "imports" prefix this repository uses, and the folder it names. */
const CORE_PREFIX = '#core/';

/**
 * The absolute path a specifier names, or null for a package (node:*, npm) or an unknown form.
 * @param {string} spec
 * @param {string} fromFile absolute path of the importing file
 * @param {string} root the repository's root (where core/ is)
 * @returns {string | null}
 */
export function resolveSpecifier(spec, fromFile, root) {
  if (spec.startsWith(CORE_PREFIX)) return join(root, 'core', spec.slice(CORE_PREFIX.length));
  if (spec.startsWith('./') || spec.startsWith('../')) return resolve(dirname(fromFile), spec);
  return null;
}

/**
 * Whether `folder` is a strict ancestor of `of` (both absolute).
 * @param {string} folder
 * @param {string} of
 */
function isAncestor(folder, of) {
  const rel = relative(folder, of);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel);
}

// Static imports and re-exports only, as the console's module server reads them
// (local-server/src/console/console-modules.js): what runs when a module loads.
const STATIC = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/g;

/**
 * A cache of each file's static import targets, read from disk once per lint run.
 * @param {string} root
 */
export function createImportGraph(root) {
  /** @type {Map<string, string[]>} */
  const edges = new Map();
  /** @param {string} file @returns {string[]} */
  const importsOf = (file) => {
    let targets = edges.get(file);
    if (targets) return targets;
    targets = [];
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(STATIC)) {
        const target = resolveSpecifier(match[1], file, root);
        if (target && /\.[cm]?js$/.test(target)) targets.push(target);
      }
    }
    edges.set(file, targets);
    return targets;
  };
  /**
   * A chain of imports from `start` back to `file`, or null. Bounded: each file is visited once.
   * @param {string} start
   * @param {string} file
   * @returns {string[] | null}
   */
  const pathBack = (start, file) => {
    /** @type {Map<string, string | null>} */
    const cameFrom = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const at = /** @type {string} */ (queue.shift());
      if (at === file) {
        const chain = [];
        for (let step = /** @type {string | null} */ (at); step !== null; step = cameFrom.get(step) ?? null) chain.unshift(step);
        return chain;
      }
      for (const next of importsOf(at)) {
        if (cameFrom.has(next)) continue;
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
    return null;
  };
  return { importsOf, pathBack };
}

/** Where the repository's root is: the folder holding this plugin's tools/. */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The import source nodes of a file (static imports and re-exports).
 * @param {(node: any, spec: string) => void} check
 */
function eachStaticImport(check) {
  /** @param {any} node */
  const visit = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source, node.source.value);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit };
}

const noParentFolderImport = {
  meta: {
    type: 'problem',
    docs: { description: "no import of a file lying directly in one of the importer's ancestor folders" },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: {
      up: "{{spec}} is a file of an ancestor folder ({{folder}}/): a folder's files do not reach up to their parent's (docs/explanation/architecture.md#imports-point-one-way)",
    },
  },
  /** @param {any} context */
  create(context) {
    const root = context.options[0]?.root ?? REPO_ROOT;
    const file = context.filename;
    return eachStaticImport((node, spec) => {
      const target = resolveSpecifier(spec, file, root);
      if (!target) return;
      if (isAncestor(dirname(target), dirname(file)))
        context.report({ node, messageId: 'up', data: { spec, folder: relative(root, dirname(target)).split(sep).join('/') || '.' } });
    });
  },
};

/** One graph per root for the whole lint run (ESLint lints many files in one process). */
const graphs = new Map();

const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no chain of static imports leads back to the importing file' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: { cycle: 'import cycle: {{chain}}' },
  },
  /** @param {any} context */
  create(context) {
    const root = context.options[0]?.root ?? REPO_ROOT;
    if (!graphs.has(root)) graphs.set(root, createImportGraph(root));
    const graph = graphs.get(root);
    const file = context.filename;
    return eachStaticImport((node, spec) => {
      const target = resolveSpecifier(spec, file, root);
      if (!target || !/\.[cm]?js$/.test(target)) return;
      const chain = graph.pathBack(target, file);
      if (chain) {
        const names = [file, ...chain].map((p) => relative(root, p).split(sep).join('/'));
        context.report({ node, messageId: 'cycle', data: { chain: names.join(' → ') } });
      }
    });
  },
};

/** The plugin, registered as `tutti` in eslint.config.js. */
export default {
  meta: { name: 'tutti-import-rules' },
  rules: { 'no-parent-folder-import': noParentFolderImport, 'no-import-cycle': noImportCycle },
};
