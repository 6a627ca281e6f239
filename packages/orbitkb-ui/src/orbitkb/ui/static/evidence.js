// Edge reasons and evidence on demand: the map's JSON leaves them out (half of its bytes); they are
// asked for when an edge is selected (/api/edge) or a service is (/api/edges: all of its edges at once,
// so a click on one of them in its panel needs no request). One request per edge at most.

import { get } from "./api.js";

const known = new Map();  // edge id -> Promise of {reason, evidence, ...}
const MOST = 200;  // edges of one node fetched at once

function keep(id, promise) {
  known.set(id, promise);
  promise.catch(() => known.delete(id));  // a failure is asked again next time
  return promise;
}

const pending = new Map();  // node -> Promise of its edges being prefetched

// an edge id is `${protocol}:${source}->${target}:${channel}`: is it an edge of this node?
const touches = (id, node) => id.includes(`:${node}->`) || id.includes(`->${node}:`);

export function edgeDetail(id) {
  const have = known.get(id);
  if (have) return have;
  // a click that comes before its node's prefetch has answered waits for it instead of asking twice
  const waits = [...pending].filter(([node]) => touches(id, node)).map(([, p]) => p);
  if (!waits.length) return keep(id, get("/api/edge", { id }));
  return Promise.allSettled(waits).then(() => known.get(id) || keep(id, get("/api/edge", { id })));
}

// every edge at a node (direction: any | in | out), one page; each is kept for edgeDetail
export async function nodeEdges(node, { direction = "any", limit = MOST, offset = 0 } = {}) {
  const page = await get("/api/edges", { node, direction, limit, offset });
  for (const e of page.edges) if (!known.has(e.id)) known.set(e.id, Promise.resolve(e));
  return page;
}

const prefetched = new Set();  // nodes whose edges were fetched (or are being fetched) ahead of a click

// the edges of a selected node, fetched ahead of a click on one of them, once per node
// (errors: the node is asked again when chosen again, and the click asks for its edge)
export function prefetchNode(node) {
  if (prefetched.has(node)) return;
  prefetched.add(node);
  const asked = nodeEdges(node);
  pending.set(node, asked);
  asked.catch(() => prefetched.delete(node)).finally(() => pending.delete(node));
}
