// The world outline maps are drawn on: Natural Earth 1:110m countries bundled by the world-atlas package (no tile
// server, works offline), converted with topojson-client and registered with ECharts once, when the first map draws.
import type { echarts as EchartsNs } from "./echarts-setup";

type Ring = [number, number][];

/**
 * A ring that crosses the antimeridian (Russia's and Fiji's jump between 180 and -180 twice) is drawn on one side, so
 * no stripe runs across the map; Antarctica's single jump closes it around the pole and is left alone.
 */
export function unwrapRing(ring: Ring): Ring {
  let jumps = 0;
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) jumps++;
  return jumps >= 2 ? ring.map(([lon, lat]) => [lon < 0 ? lon + 360 : lon, lat]) : ring;
}

/** The bundled world outline, registered once (110m Natural Earth countries: ~100 kB, loaded with the first map). */
export async function registerWorld(echarts: typeof EchartsNs): Promise<void> {
  if (echarts.getMap("world")) return;
  const [{ feature }, topo] = await Promise.all([import("topojson-client"), import("world-atlas/countries-110m.json")]);
  const world = (topo as { default?: unknown }).default ?? topo;
  const t = world as Parameters<typeof feature>[0] & { objects: { countries: Parameters<typeof feature>[1] } };
  const geo = feature(t, t.objects.countries) as unknown as { features: { geometry: { type: string; coordinates: unknown } }[] };
  for (const f of geo.features) {
    const g = f.geometry;
    if (g?.type === "Polygon") g.coordinates = (g.coordinates as Ring[]).map(unwrapRing);
    else if (g?.type === "MultiPolygon") g.coordinates = (g.coordinates as Ring[][]).map((p) => p.map(unwrapRing));
  }
  echarts.registerMap("world", geo as unknown as Parameters<typeof echarts.registerMap>[1]);
}
