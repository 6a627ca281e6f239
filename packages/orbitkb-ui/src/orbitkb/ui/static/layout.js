// A layered layout in linear time: each repository is a box; inside it, services are placed in
// rows by how deep they sit in the call/message flow (callers above callees), resources in the
// last row; boxes are packed on shelves. Deterministic: the same model draws the same picture.

const DX = 150;
const DY = 95;
const GAP = 90;

function layers(ids, edges) {
  const inGroup = new Set(ids);
  const out = new Map(ids.map((id) => [id, []]));
  for (const e of edges) {
    if (e.protocol !== "USES" && inGroup.has(e.source) && inGroup.has(e.target) && e.source !== e.target) {
      out.get(e.source).push(e.target);
    }
  }
  // depth = longest path from a root, cycles cut where the walk meets a node still open
  const depth = new Map();
  const state = new Map();
  const visit = (start) => {
    const stack = [[start, 0]];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [node, i] = top;
      const next = out.get(node)[i];
      if (next === undefined) {
        stack.pop();
        state.set(node, 2);
        let d = 0;
        for (const t of out.get(node)) if (state.get(t) === 2 && depth.has(t)) d = Math.max(d, depth.get(t) + 1);
        depth.set(node, d);
        continue;
      }
      top[1] = i + 1;
      if (!state.has(next)) {
        state.set(next, 1);
        stack.push([next, 0]);
      }
    }
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  // depth counted from the bottom: turn it into rows from the top
  const max = Math.max(0, ...depth.values());
  return new Map(ids.map((id) => [id, max - (depth.get(id) || 0)]));
}

function boxOf(group, edges) {
  const services = group.nodes.filter((n) => n.kind !== "resource").map((n) => n.id).sort();
  const depth = layers(services, edges);
  // a long chain (or a big cycle) would make a thin tower: neighbouring layers share a row so
  // that a 300-service repository stays a readable rectangle, callers still above callees
  const width = Math.max(4, Math.ceil(Math.sqrt(group.nodes.length * 2)));
  const deepest = Math.max(0, ...depth.values());
  const most = Math.max(1, Math.ceil(services.length / width) + 1);
  const scale = deepest + 1 > most ? most / (deepest + 1) : 1;
  const rows = [];
  for (const id of services) (rows[Math.floor(depth.get(id) * scale)] ||= []).push(id);
  const resources = group.nodes.filter((n) => n.kind === "resource").map((n) => n.id).sort();
  if (resources.length) rows.push(resources);
  const wrapped = [];
  for (const r of rows.filter(Boolean)) for (let i = 0; i < r.length; i += width) wrapped.push(r.slice(i, i + width));
  const local = new Map();
  wrapped.forEach((r, y) => r.forEach((id, x) => local.set(id, { x: x * DX + (y % 2 ? DX / 3 : 0), y: y * DY })));
  const cols = Math.max(1, ...wrapped.map((r) => r.length));
  return { local, w: cols * DX + DX / 3, h: wrapped.length * DY };
}

// groups: [{id, nodes:[{id, kind}]}]; returns Map(node id -> {x, y})
export function layered(groups, edges) {
  const boxes = groups.map((g) => ({ g, ...boxOf(g, edges) }));
  const area = boxes.reduce((a, b) => a + (b.w + GAP) * (b.h + GAP), 0);
  const shelf = Math.max(Math.sqrt(area) * 1.5, ...boxes.map((b) => b.w));
  const positions = new Map();
  let x = 0;
  let y = 0;
  let tallest = 0;
  for (const b of boxes) {
    if (x > 0 && x + b.w > shelf) {
      x = 0;
      y += tallest + GAP;
      tallest = 0;
    }
    for (const [id, p] of b.local) positions.set(id, { x: x + p.x, y: y + p.y });
    x += b.w + GAP;
    tallest = Math.max(tallest, b.h);
  }
  return positions;
}
