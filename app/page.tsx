// Home page: what Chatty-KG is, whether an LLM is configured (or exactly which env vars to set), and the default KG.
import { connection } from "next/server";
import { llmStatusFromEnv } from "@/lib/llm/config";
import { describeDefaultKg } from "./default-kg";

export default async function HomePage() {
  await connection(); // read env vars per request, not once at build time
  const llm = llmStatusFromEnv();
  const kg = describeDefaultKg(process.env.KG_DEFAULT);

  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-8 px-6 py-16">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-semibold tracking-tight">Chatty-KG</h1>
        <p className="text-muted-foreground">
          Chat, in any language and over several turns, with any RDF knowledge graph: agents turn your questions into
          SPARQL and show how they got the answer.
        </p>
      </header>

      <section aria-labelledby="llm-heading" className="rounded-lg border bg-card p-5" data-testid="llm-status">
        <h2 id="llm-heading" className="mb-2 text-sm font-medium uppercase tracking-wide text-muted-foreground">
          Language model
        </h2>
        {llm.configured ? (
          <p>
            <span className="mr-2 inline-block size-2 rounded-full bg-success" aria-hidden />
            Using <strong>{llm.provider}</strong> model <code className="rounded bg-muted px-1">{llm.model}</code>.
          </p>
        ) : (
          <div className="flex flex-col gap-3">
            <p>
              <span className="mr-2 inline-block size-2 rounded-full bg-warning" aria-hidden />
              <strong>Not configured.</strong> {llm.message}
            </p>
            {llm.missing.length > 0 && (
              <div>
                <p className="text-sm text-muted-foreground">
                  {llm.provider ? "Set:" : "Set one of:"}
                </p>
                <ul className="mt-1 flex flex-wrap gap-2" aria-label="Environment variables to set">
                  {llm.missing.map((name) => (
                    <li key={name}>
                      <code className="rounded bg-muted px-1.5 py-0.5 text-sm">{name}</code>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <p className="text-sm text-muted-foreground">
              Put them in <code>.env</code> (see <code>.env.example</code>) and restart the server.
            </p>
          </div>
        )}
      </section>

      <section aria-labelledby="kg-heading" className="rounded-lg border bg-card p-5" data-testid="kg-status">
        <h2 id="kg-heading" className="mb-2 text-sm font-medium uppercase tracking-wide text-muted-foreground">
          Knowledge graph
        </h2>
        <p>{kg.label}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          Change it with <code>KG_DEFAULT</code> (<code>sample</code>, RDF file paths, or a SPARQL endpoint URL).
        </p>
      </section>
    </main>
  );
}
