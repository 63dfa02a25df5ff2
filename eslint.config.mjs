// Lint: typescript-eslint's recommended rules, plus the layering rule lib/ never imports app/ or components/ (static or dynamic),
// and SPARQL text is parsed and written only through lib/kg/sparql-syntax.ts (it corrects sparqljs' deviations).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".tools/**", "generated/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "sparqljs",
              allowTypeImports: true,
              message: "Parse and write SPARQL with parseSparql/stringifySparql from @/lib/kg/sparql-syntax (it fixes sparqljs' deviations); type imports are fine.",
            },
          ],
          patterns: [{ group: ["sparqljs/*"], message: "Only lib/kg/sparql-syntax.ts reaches into sparqljs." }],
        },
      ],
    },
  },
  {
    files: ["lib/kg/sparql-syntax.ts", "lib/kg/sparql-syntax.test.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": "off" },
  },
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/app/*", "@/components/*"], message: "lib/ must not depend on app/ or components/." }] },
      ],
      // no-restricted-imports does not see import(): catch dynamic imports of app/ or components/ too (tests included)
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/^@\\/(app|components)\\//]",
          message: "lib/ must not depend on app/ or components/ (dynamic import).",
        },
        {
          selector: "ImportExpression > TemplateLiteral.source[quasis.0.value.raw=/^@\\/(app|components)\\//]",
          message: "lib/ must not depend on app/ or components/ (dynamic import).",
        },
      ],
    },
  },
);
