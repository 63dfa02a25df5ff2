// The first Tab stop: "Skip to the question box", shown only when focused.
export function SkipLink() {
  return (
    <a
      href="#question"
      data-testid="skip-to-question"
      className="sr-only focus-visible:not-sr-only focus-visible:fixed focus-visible:top-2 focus-visible:left-2 focus-visible:z-50 focus-visible:rounded-md focus-visible:bg-card focus-visible:px-3 focus-visible:py-2 focus-visible:text-sm focus-visible:shadow focus-visible:ring-2 focus-visible:ring-ring"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById("question")?.focus();
      }}
    >
      Skip to the question box
    </a>
  );
}
