#!/usr/bin/env node
// The import-rule check (`npm run lint`): dependency-cruiser with the rules in .dependency-cruiser.cjs.
//
// Why a wrapper: dependency-cruiser reads TypeScript through the `typescript` package's JavaScript API, which
// TypeScript 7 (the native compiler this project builds with) no longer has, so on its own it sees no module.
// This script strips the types with esbuild (already installed, as Vite's and tsx's) into a temporary copy of
// the tree, keeping every import -- `import type` and `export type ... from` included, since a type import is a
// dependency between layers too -- and lets dependency-cruiser check that copy. Paths in the report are the
// source paths. Usage: node scripts/check-imports.mjs [--graph] (--graph prints the module graph as JSON).
import { copyFileSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { cruise, format } from 'dependency-cruiser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const roots = ['src', 'web', 'bench', 'test'];
const skipDirs = new Set(['node_modules', 'dist', 'public']);
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) yield* sources(path);
    } else {
      yield path;
    }
  }
}

// `./x.ts` / `./x.tsx` specifiers (the web app's bundler style) point at the stripped `.js` / `.jsx` copies.
const jsName = (name) => name.replace(/\.tsx$/, '.jsx').replace(/\.ts$/, '.js');
const typeImportsAsValues = (text) =>
  text.replace(/^(\s*)import\s+type\s+/gm, '$1import ').replace(/^(\s*)export\s+type\s+(\{|\*)/gm, '$1export $2');

// Inside the checkout (git ignores it), so that package imports resolve to node_modules as from the sources.
const copy = mkdtempSync(join(root, '.import-check-'));
const original = new Map();
try {
  for (const top of roots) {
    for (const file of sources(join(root, top))) {
      const rel = relative(root, file);
      // Other files (JSON, CSS) are copied as they are, so that imports of them resolve.
      if (!/\.(ts|tsx)$/.test(file) || file.endsWith('.d.ts')) {
        mkdirSync(join(copy, dirname(rel)), { recursive: true });
        copyFileSync(file, join(copy, rel));
        continue;
      }
      const out = jsName(rel);
      original.set(out, rel);
      const { code } = transformSync(typeImportsAsValues(readFileSync(file, 'utf8')), {
        loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
        format: 'esm',
        jsx: 'preserve',
        tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
      });
      const relinked = code.replace(/((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']+)\.tsx?(["'])/g, (m, a, b, c) =>
        `${a}${b}${m.includes('.tsx') ? '.jsx' : '.js'}${c}`);
      mkdirSync(join(copy, dirname(out)), { recursive: true });
      writeFileSync(join(copy, out), relinked);
    }
  }
  const cwd = process.cwd();
  process.chdir(copy);
  let result;
  try {
    result = await cruise(roots, { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
  } finally {
    process.chdir(cwd);
  }
  const back = (name) => original.get(name) ?? name;
  const output = result.output;
  for (const mod of output.modules) {
    mod.source = back(mod.source);
    for (const dep of mod.dependencies) {
      dep.resolved = back(dep.resolved);
      if (dep.cycle) dep.cycle = dep.cycle.map((step) => ({ ...step, name: back(step.name) }));
    }
  }
  for (const v of output.summary.violations) {
    v.from = back(v.from);
    v.to = back(v.to);
    if (v.cycle) v.cycle = v.cycle.map((step) => ({ ...step, name: back(step.name) }));
  }
  if (process.argv.includes('--graph')) {
    const graph = Object.fromEntries(output.modules.map((m) => [m.source, m.dependencies.map((d) => d.resolved)]));
    console.log(JSON.stringify(graph, null, 1));
  } else {
    const report = await format(output, { outputType: 'err-long' });
    process.stdout.write(report.output);
    process.exitCode = report.exitCode > 0 ? 1 : 0;
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}
