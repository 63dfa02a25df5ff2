// Shown when the server has no LLM configured: which env vars to set, or that a base URL + model can be entered above.
import type { LlmStatus } from "@/lib/llm/config";

export function LlmNotice({ llm, overridden }: { llm: LlmStatus; overridden: boolean }) {
  return (
    <section aria-labelledby="llm-heading" className="rounded-lg border bg-card p-4 text-sm" data-testid="llm-status">
      <h2 id="llm-heading" className="mb-2 text-xs font-medium uppercase tracking-wide text-muted-foreground">
        Language model
      </h2>
      {llm.configured ? (
        <p>
          <span className="mr-2 inline-block size-2 rounded-full bg-success" aria-hidden />
          Using <strong>{llm.provider}</strong> model <code className="rounded bg-muted px-1">{llm.model}</code>.
        </p>
      ) : (
        <div className="flex flex-col gap-2">
          <p>
            <span className="mr-2 inline-block size-2 rounded-full bg-warning" aria-hidden />
            <strong>Not configured.</strong> {llm.message}
          </p>
          {llm.missing.length > 0 && (
            <div>
              <p className="text-muted-foreground">{llm.provider ? "Set:" : "Set one of:"}</p>
              <ul className="mt-1 flex flex-wrap gap-2" aria-label="Environment variables to set">
                {llm.missing.map((name) => (
                  <li key={name}>
                    <code className="rounded bg-muted px-1.5 py-0.5">{name}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <p className="text-muted-foreground">
            Put them in <code>.env</code> (see <code>.env.example</code>) and restart the server, or choose &ldquo;Other
            server…&rdquo; under Model in the settings and enter a base URL and model (for example a local Ollama at{" "}
            <code>http://127.0.0.1:11434/v1</code>).
          </p>
          {overridden && <p className="text-success">A model is set in the settings: questions will use it.</p>}
        </div>
      )}
    </section>
  );
}
