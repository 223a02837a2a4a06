// ESLint for the site's JavaScript (tests/test_lint.py runs it; `npx eslint .`): the recommended rules,
// each file against the globals it really has. Types are tsc's (tsconfig*.json); this catches the rest:
// unused names, unreachable code, a `catch` that swallows its error without saying why.
import js from "@eslint/js";
import globals from "globals";

/** A `catch` block must do something or say in a comment why silence is right (issue 32). */
const emptyCatch = ["error", { allowEmptyCatch: false }];

export default [
  {
    ignores: ["site/**", "node_modules/**", "build/**", ".venv/**", "test-artifacts/**", "bench-results/**",
      // Generated from scripts/calculators/ (wiki/page_bundle.py), which is linted instead.
      "overrides/assets/javascripts/calculators.js"],
  },
  js.configs.recommended,
  {
    rules: {
      "no-empty": emptyCatch,
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
  {
    // The page's ES modules, and the live calculators' modules that are bundled into one of them.
    files: ["overrides/assets/javascripts/*.js", "scripts/calculators/*.js"],
    ignores: ["overrides/assets/javascripts/calculator-worker.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The calculators' module Web Worker (Pyodide is imported from the site).
    files: ["overrides/assets/javascripts/calculator-worker.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.worker } },
  },
  {
    // The service worker: a classic script; the build prepends `const BUILD = {...};` (wiki/offline.py).
    files: ["wiki/sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker, BUILD: "readonly" } },
  },
  {
    // The build's Node scripts (snapshot, trims, bytecode), the Pyodide test runner and this file.
    files: ["wiki/*.mjs", "tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
];
