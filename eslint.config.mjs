// Lint: typescript-eslint's recommended rules, plus the layering rule lib/ never imports app/ or components/ (static or dynamic).
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
