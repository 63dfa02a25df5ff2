// The process-wide registry of open knowledge graphs: the public default ("sample"), per-session uploads and endpoints.
import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { AppError, toAppError } from "@/lib/errors";
import type { EndpointRequest, KgKind, KgListItem } from "@/lib/api/contract";
import type { Queries } from "@/lib/db/queries";
import { createEmbeddedKg as defaultCreateEmbeddedKg, type Entailment, type SpareWorker } from "@/lib/kg/embedded/embedded-kg";
import { expandRdfPaths, parseKgArg, SAMPLE_KG_PATH, type KgSpec } from "@/lib/kg/open-kg";
import { createRemoteKg as defaultCreateRemoteKg } from "@/lib/kg/remote";
import { endpointHash, hashFiles } from "@/lib/kg/onboarding/content-hash";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createEndpointPolicy, type EndpointPolicy } from "./endpoint-policy";
import { displayUrl, endpointSpecSchema, profileFromRequest, uploadSpecSchema, withDefaultProfile, withInfo } from "./kg-source-specs";
import { checkUploadFiles, storeUploadFiles, uploadDigest, uploadLimitBytes, type StreamedUploadFile, type UploadFile } from "./kg-uploads";
import { safeError, splitUrlCredentials } from "./security";

// where they were defined before the upload and source-spec helpers had files of their own
export { displayUrl, withDefaultProfile } from "./kg-source-specs";
export { MAX_UPLOAD_FILES, uploadDigest, uploadLimitBytes, type StreamedUploadFile, type UploadFile } from "./kg-uploads";

export const SAMPLE_KG_ID = "sample";
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

type Env = Record<string, string | undefined>;

export interface KgRegistryOptions {
  queries: Pick<Queries, "createKgSource" | "listKgSources" | "getKgSource">;
  /** project root: the sample graph and relative KG_DEFAULT paths resolve from here */
  rootDir?: string;
  /** where uploads are kept (<dataDir>/uploads/<upload id>/) */
  dataDir?: string;
  env?: Env;
  createEmbeddedKg?: typeof defaultCreateEmbeddedKg;
  createRemoteKg?: typeof defaultCreateRemoteKg;
  /** ms for the ASK probe of a new endpoint */
  probeTimeoutMs?: number;
  /** which endpoint URLs users may add (default: from env, KG_ALLOW_PRIVATE_ENDPOINTS) */
  endpointPolicy?: EndpointPolicy;
  /**
   * Starts a warmed-up embedded-KG worker (startSpareWorker). When given, the registry keeps ONE spare ready: the
   * next upload loads on it (about 3x faster on a small file than a cold worker, see README "Benchmarks"), and a new
   * spare is started once that load is done. The registry closes the spare on close(). None by default.
   */
  startSpareWorker?: () => SpareWorker;
  /** Called after an upload or endpoint was added (and for the same upload added again): starts its onboarding. */
  onAdded?: (sessionId: string, item: KgListItem) => void;
}

export interface KgAccess {
  id: string;
  name: string;
  kind: KgKind;
}

export interface KgRegistry {
  readonly defaultKgId: string;
  /** KGs this session may use: the default one first, then its own uploads and endpoints (newest first). */
  list(sessionId: string): Promise<KgListItem[]>;
  /** Checks the session may use the KG, without opening it; not_found for unknown or foreign ids. */
  access(sessionId: string, kgId: string): Promise<KgAccess>;
  /** The open KG (opened at first use, then shared by every request). */
  getKg(sessionId: string, kgId: string): Promise<KnowledgeGraph>;
  /**
   * Loads the files into a new embedded KG; registered only when every file loaded. The same content uploaded again
   * by the same session (any file names, any order) returns the KG it already has instead of a second copy.
   */
  addUpload(sessionId: string, files: (UploadFile | StreamedUploadFile)[], name?: string, options?: { entailment?: Entailment }): Promise<KgListItem>;
  /** Checks the URL against the endpoint policy, probes the endpoint with ASK, then registers it. */
  addEndpoint(sessionId: string, request: EndpointRequest): Promise<KgListItem>;
  /**
   * What identifies the KG's content for its onboarding (lib/kg/onboarding/content-hash.ts): a hash of its files (the
   * default KG's, computed once; an upload's from when it was stored) or, for an endpoint, its URL.
   */
  contentKey(sessionId: string, kgId: string): Promise<string>;
  close(): Promise<void>;
}

export function createKgRegistry(options: KgRegistryOptions): KgRegistry {
  const env = options.env ?? process.env;
  const rootDir = options.rootDir ?? process.cwd();
  const uploadsDir = path.join(options.dataDir ?? path.join(rootDir, ".data"), "uploads");
  const createEmbedded = options.createEmbeddedKg ?? defaultCreateEmbeddedKg;
  const createRemote = options.createRemoteKg ?? defaultCreateRemoteKg;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const queries = options.queries;
  // user-added endpoints only: KG_DEFAULT is the operator's choice and may well be on localhost
  const policy = options.endpointPolicy ?? createEndpointPolicy({ env });

  let closed = false;
  let spare: SpareWorker | undefined;
  /** Starts the one spare worker if there is none (and the registry is open). */
  function refillSpare(): void {
    if (!closed && !spare && options.startSpareWorker) spare = options.startSpareWorker();
  }
  /** The spare for one createEmbeddedKg, which then owns it. */
  function takeSpare(): { worker: SpareWorker } | Record<string, never> {
    const s = spare;
    spare = undefined;
    return s ? { worker: s } : {};
  }
  refillSpare();

  const open = new Map<string, Promise<KnowledgeGraph>>();
  const ready = new Map<string, KnowledgeGraph>();
  const failures = new Map<string, string>();

  const defaultSpec: KgSpec = withDefaultProfile(parseKgArg(env.KG_DEFAULT?.trim() || "sample"), env.KG_DEFAULT_PROFILE);
  // KG_DEFAULT_ENTAILMENT=rdfs: the default KG's files get what their own schema implies (endpoints keep their regime)
  const defaultEntailment = env.KG_DEFAULT_ENTAILMENT?.trim() === "rdfs" && defaultSpec.kind !== "endpoint" ? ("rdfs" as const) : undefined;
  /** KGs known to be loaded with entailment, before they are open (the menu says so for not-loaded ones too) */
  const entailmentOf = new Map<string, string | undefined>([[SAMPLE_KG_ID, defaultEntailment]]);
  const defaultName =
    defaultSpec.kind === "sample" ? "Sample KG"
    : defaultSpec.kind === "endpoint" ? displayUrl(defaultSpec.url)
    : `Default KG (${defaultSpec.paths.map((p) => path.basename(p)).join(", ")})`;

  function openDefault(): Promise<KnowledgeGraph> {
    if (defaultSpec.kind === "endpoint") {
      const { url, headers } = splitUrlCredentials(defaultSpec.url);
      return Promise.resolve(createRemote({ url, profile: defaultSpec.profile, headers: { ...headers, ...defaultSpec.headers }, name: defaultName }));
    }
    const paths = defaultSpec.kind === "sample" ? [SAMPLE_KG_PATH] : defaultSpec.paths;
    return createEmbedded({
      id: SAMPLE_KG_ID,
      name: defaultName,
      // a folder is its RDF files (a KG split into one TriG file per named graph)
      sources: expandRdfPaths(paths.map((p) => ({ path: path.resolve(rootDir, p) }))),
      ...(defaultSpec.profile ? { profile: defaultSpec.profile } : {}),
      ...(defaultEntailment ? { entailment: defaultEntailment } : {}),
    });
  }

  async function openSource(kgId: string, record: { name: string; kind: string; spec: Record<string, unknown> }): Promise<KnowledgeGraph> {
    if (record.kind === "upload") {
      const spec = uploadSpecSchema.parse(record.spec);
      try {
        return await createEmbedded({
          id: kgId,
          name: record.name,
          sources: spec.files.map((f) => ({ path: path.join(uploadsDir, spec.dir, f) })),
          ...(spec.entailment ? { entailment: spec.entailment } : {}),
          ...takeSpare(),
        });
      } finally {
        // started after the load, so its warm-up does not compete with the load for a core
        refillSpare();
      }
    }
    if (record.kind === "endpoint") {
      const spec = endpointSpecSchema.parse(record.spec);
      // credentials stay in the stored spec (server-side only) and travel as an Authorization header
      const { url, headers } = splitUrlCredentials(spec.url);
      return withInfo(createRemote({ url, profile: spec.profile, name: record.name, fetch: policy.fetch, ...(headers ? { headers } : {}) }), { id: kgId });
    }
    throw new AppError("internal", `KG source ${kgId} has an unknown kind "${record.kind}".`);
  }

  /** Opens once and shares the promise; a failed open is forgotten so the next request tries again. */
  function cached(kgId: string, opener: () => Promise<KnowledgeGraph>): Promise<KnowledgeGraph> {
    let p = open.get(kgId);
    if (!p) {
      p = opener().then(
        (kg) => {
          ready.set(kgId, kg);
          failures.delete(kgId);
          return kg;
        },
        (e: unknown) => {
          open.delete(kgId);
          const err = safeError(e, "kg_load");
          failures.set(kgId, err.message);
          throw err;
        },
      );
      open.set(kgId, p);
    }
    return p;
  }

  function item(id: string, name: string, kind: KgKind, url?: string): KgListItem {
    const kg = ready.get(id);
    const error = failures.get(id);
    return {
      id,
      name,
      kind,
      ...(kg?.info.triples !== undefined ? { triples: kg.info.triples } : {}),
      status: kg ? "ready" : error ? "error" : "not-loaded",
      ...(error && !kg ? { error } : {}),
      ...(url ? { url } : {}),
      ...(kg?.info.entailment === "rdfs" || entailmentOf.get(id) === "rdfs" ? { entailment: "rdfs" as const } : {}),
    };
  }

  const defaultKind: KgKind = defaultSpec.kind === "endpoint" ? "endpoint" : "sample";

  /** Tells the owner a KG was added (its onboarding starts); a failing hook never fails the upload. */
  function added(sessionId: string, listed: KgListItem): KgListItem {
    try {
      options.onAdded?.(sessionId, listed);
    } catch {
      // onboarding is a help: the KG is added either way
    }
    return listed;
  }

  let defaultHash: Promise<string> | undefined;
  function defaultContentKey(): Promise<string> {
    if (defaultSpec.kind === "endpoint") return Promise.resolve(endpointHash(splitUrlCredentials(defaultSpec.url).url));
    const paths = defaultSpec.kind === "sample" ? [SAMPLE_KG_PATH] : defaultSpec.paths;
    defaultHash ??= hashFiles(
      expandRdfPaths(paths.map((p) => ({ path: path.resolve(rootDir, p) }))).map((f) => f.path),
      defaultEntailment ?? "none",
    ).catch((e: unknown) => {
      defaultHash = undefined;
      throw e;
    });
    return defaultHash;
  }

  const registry: KgRegistry = {
    defaultKgId: SAMPLE_KG_ID,

    async list(sessionId) {
      const sources = await queries.listKgSources({ sessionId });
      return [
        item(SAMPLE_KG_ID, defaultName, defaultKind, defaultSpec.kind === "endpoint" ? displayUrl(defaultSpec.url) : undefined),
        ...sources.map((s) => {
          entailmentOf.set(s.id, typeof s.spec.entailment === "string" ? s.spec.entailment : undefined);
          const kind: KgKind = s.kind === "endpoint" ? "endpoint" : "upload";
          const url = kind === "endpoint" && typeof s.spec.url === "string" ? displayUrl(s.spec.url) : undefined;
          return item(s.id, s.name, kind, url);
        }),
      ];
    },

    async access(sessionId, kgId) {
      if (kgId === SAMPLE_KG_ID) return { id: SAMPLE_KG_ID, name: defaultName, kind: defaultKind };
      const record = await queries.getKgSource({ sessionId, kgSourceId: kgId });
      return { id: record.id, name: record.name, kind: record.kind === "endpoint" ? "endpoint" : "upload" };
    },

    async getKg(sessionId, kgId) {
      if (kgId === SAMPLE_KG_ID) return cached(SAMPLE_KG_ID, openDefault);
      // ownership is checked on every call, not only at first open: the cache is shared by all sessions
      const record = await queries.getKgSource({ sessionId, kgSourceId: kgId });
      return cached(kgId, () => openSource(kgId, record));
    },

    async addUpload(sessionId, files, name, uploadOptions = {}) {
      checkUploadFiles(files, uploadLimitBytes(env));
      const sha256 = uploadDigest(files);
      const entailment = uploadOptions.entailment === "rdfs" ? "rdfs" : undefined;
      // the same files with and without entailment are two KGs
      const duplicate = (await queries.listKgSources({ sessionId })).find((s) => s.kind === "upload" && s.spec.sha256 === sha256 && (s.spec.entailment ?? undefined) === entailment);
      if (duplicate) return added(sessionId, item(duplicate.id, duplicate.name, "upload"));
      const dir = randomUUID();
      const folder = path.join(uploadsDir, dir);
      await mkdir(folder, { recursive: true });
      let kg: KnowledgeGraph | undefined;
      try {
        const stored = await storeUploadFiles(files, folder);
        const displayName = (name?.trim() || files.map((f) => path.basename(f.name)).join(", ")).slice(0, 200);
        // Loaded completely before anything is registered: a bad line in any file leaves no trace but the error.
        try {
          kg = await createEmbedded({ id: `upload:${dir}`, name: displayName, sources: stored.map((f) => ({ path: path.join(folder, f) })), ...(entailment ? { entailment } : {}), ...takeSpare() });
        } finally {
          refillSpare();
        }
        if (!kg.info.triples) throw new AppError("kg_load", `No triples found in ${files.map((f) => f.name).join(", ")}.`);
        const record = await queries.createKgSource({ sessionId, name: displayName, kind: "upload", spec: { dir, files: stored, sha256, ...(entailment ? { entailment } : {}) } });
        const registered = withInfo(kg, { id: record.id });
        open.set(record.id, Promise.resolve(registered));
        ready.set(record.id, registered);
        return added(sessionId, item(record.id, record.name, "upload"));
      } catch (e) {
        await kg?.close().catch(() => {});
        await rm(folder, { recursive: true, force: true }).catch(() => {});
        throw toAppError(e, "kg_load");
      }
    },

    async addEndpoint(sessionId, request) {
      // scheme, then every address the host resolves to (SSRF); each request and redirect is checked again
      const url = await policy.check(request.url);
      const profile = profileFromRequest(request.profile);
      const name = (request.name?.trim() || url.host).slice(0, 200);
      const split = splitUrlCredentials(url.toString());
      const kg = createRemote({ url: split.url, profile, name, fetch: policy.fetch, ...(split.headers ? { headers: split.headers } : {}) });
      try {
        await kg.ask("ASK { ?s ?p ?o }", { timeoutMs: probeTimeoutMs });
      } catch (e) {
        await kg.close().catch(() => {});
        const err = safeError(e, "kg_unreachable");
        const code = err.code.startsWith("kg_") ? err.code : "kg_unreachable";
        throw new AppError(code, `The endpoint ${displayUrl(url.toString())} did not answer a test query (ASK { ?s ?p ?o }): ${err.message}`, {
          cause: e,
          where: { source: displayUrl(url.toString()) },
        });
      }
      const record = await queries.createKgSource({ sessionId, name, kind: "endpoint", spec: { url: url.toString(), ...(profile ? { profile } : {}) } });
      const registered = withInfo(kg, { id: record.id });
      open.set(record.id, Promise.resolve(registered));
      ready.set(record.id, registered);
      return added(sessionId, item(record.id, record.name, "endpoint", displayUrl(url.toString())));
    },

    async contentKey(sessionId, kgId) {
      if (kgId === SAMPLE_KG_ID) return defaultContentKey();
      const record = await queries.getKgSource({ sessionId, kgSourceId: kgId });
      // credentials stay out of it (the job, with its hash, is shown to users)
      if (record.kind === "endpoint") return endpointHash(splitUrlCredentials(endpointSpecSchema.parse(record.spec).url).url);
      const sha = typeof record.spec.sha256 === "string" ? record.spec.sha256 : record.id;
      return `sha256:${sha}:${typeof record.spec.entailment === "string" ? record.spec.entailment : "none"}`;
    },

    async close() {
      closed = true;
      const s = spare;
      spare = undefined;
      const all = [...open.values()];
      open.clear();
      ready.clear();
      await Promise.all([...all.map((p) => p.then((kg) => kg.close()).catch(() => {})), s?.close().catch(() => {})]);
    },
  };
  return registry;
}
