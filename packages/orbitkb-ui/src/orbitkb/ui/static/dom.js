// Building the page from data without ever parsing it as HTML: every string from a repository
// goes through a text node or an attribute set one by one; never parsed as markup, no link target from data.

const SAFE_ATTRIBUTES = new Set(["class", "id", "type", "title", "role", "tabindex", "for", "value",
  "name", "placeholder", "hidden", "disabled", "colspan"]);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    } else if (key.startsWith("aria-") || SAFE_ATTRIBUTES.has(key)) {
      node.setAttribute(key, value === true ? "" : String(value));
    } else {
      throw new Error(`attribute not allowed: ${key}`);
    }
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", ...attrs, onclick }, label);
}

// in-app navigation: the target is a route we build (encoded), never a URL taken from data
export function go(route, ...parts) {
  location.hash = "#/" + [route, ...parts.map(encodeURIComponent)].join("/");
}

export function evidenceText(ev) {
  if (!ev) return "";
  const lines = ev.end_line && ev.end_line !== ev.start_line ? `${ev.start_line}-${ev.end_line}` : `${ev.start_line}`;
  const commit = ev.commit ? `@${String(ev.commit).slice(0, 12)}` : "";
  return `${ev.file}:${lines}${commit}${ev.note ? ` (${ev.note})` : ""}`;
}

export function evidenceList(evidence, most = 10) {
  const items = (evidence || []).slice(0, most);
  if (!items.length) return el("p", { class: "muted" }, "no evidence recorded");
  return el("ul", { class: "items evidence" }, items.map((ev) => el("li", {}, evidenceText(ev))),
    evidence.length > most ? el("li", { class: "muted" }, `… ${evidence.length - most} more`) : null);
}

export function percent(x) {
  return typeof x === "number" ? `${Math.round(x * 100)}%` : "—";
}

export function section(title, ...children) {
  return el("section", {}, el("h2", {}, title), ...children);
}

// replace a node's content (nested arrays flattened, null / false skipped)
export function fill(node, ...children) {
  return append(clear(node), children);
}
