// Well-Known Text geometries (GeoSPARQL's geo:wktLiteral) read into lon/lat coordinates for the map. Only the simple
// features a map draws: points, line strings, polygons and their multi- forms; a CRS IRI in front is allowed (CRS84,
// lon lat, is what GeoSPARQL assumes without one). Anything else is `undefined`, never a guess.

export type Coord = [lon: number, lat: number];

export type Geometry = { kind: "point"; coords: Coord[] } | { kind: "line"; paths: Coord[][] } | { kind: "polygon"; paths: Coord[][] };

export const WKT_DATATYPE = "http://www.opengis.net/ont/geosparql#wktLiteral";
const CRS84 = /^<http:\/\/www\.opengis\.net\/def\/crs\/OGC\/1\.3\/CRS84>$/i;
const SHAPE = /^\s*(?:(<[^>]*>)\s*)?(POINT|MULTIPOINT|LINESTRING|MULTILINESTRING|POLYGON|MULTIPOLYGON)\s*(?:Z|M|ZM)?\s*(\(.*\))\s*$/is;

/** True when the text looks like WKT of a kind the map draws (without parsing the numbers). */
export function looksLikeWkt(text: string): boolean {
  return SHAPE.test(text);
}

function coord(text: string): Coord | undefined {
  const [x, y] = text.trim().split(/\s+/).map(Number);
  if (!Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) return undefined;
  return [x, y];
}

/** "(a b, c d)" → coordinates; nested parentheses are the caller's. */
function list(text: string): Coord[] | undefined {
  const inner = text.trim().replace(/^\(|\)$/g, "");
  const out: Coord[] = [];
  for (const part of inner.split(",")) {
    const c = coord(part.replace(/[()]/g, ""));
    if (!c) return undefined;
    out.push(c);
  }
  return out.length ? out : undefined;
}

/** The top-level parenthesised groups of "((…),(…))" (one level down). */
function groups(text: string): string[] {
  const inner = text.trim().slice(1, -1);
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === "(") {
      if (depth === 0) start = i;
      depth++;
    } else if (inner[i] === ")") {
      depth--;
      if (depth === 0 && start >= 0) out.push(inner.slice(start, i + 1));
    }
  }
  return out;
}

export function parseWkt(text: string): Geometry | undefined {
  const m = SHAPE.exec(text);
  if (!m) return undefined;
  // another CRS than CRS84 may swap or project the axes: not drawn rather than drawn in the wrong place
  if (m[1] && !CRS84.test(m[1])) return undefined;
  const kind = m[2].toUpperCase();
  const body = m[3];
  if (kind === "POINT") {
    const c = list(body);
    return c && c.length === 1 ? { kind: "point", coords: c } : undefined;
  }
  if (kind === "MULTIPOINT") {
    const c = list(body.replace(/\(\s*([^()]*?)\s*\)/g, "$1").replace(/^\(|\)$/g, "").replace(/^/, "(").replace(/$/, ")"));
    return c ? { kind: "point", coords: c } : undefined;
  }
  if (kind === "LINESTRING") {
    const c = list(body);
    return c ? { kind: "line", paths: [c] } : undefined;
  }
  const rings = (g: string) => groups(g).map(list);
  if (kind === "MULTILINESTRING" || kind === "POLYGON") {
    const paths = rings(body);
    if (!paths.length || paths.some((p) => !p)) return undefined;
    return { kind: kind === "POLYGON" ? "polygon" : "line", paths: paths as Coord[][] };
  }
  // MULTIPOLYGON: ((ring, ring), (ring))
  const paths = groups(body).flatMap(rings);
  if (!paths.length || paths.some((p) => !p)) return undefined;
  return { kind: "polygon", paths: paths as Coord[][] };
}
