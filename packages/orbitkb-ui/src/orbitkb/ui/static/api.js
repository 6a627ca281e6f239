// The JSON endpoints of the server. Writes carry this session's token (from the page's meta tag).

const token = () => document.querySelector('meta[name="orbitkb-token"]').content;

// a server started with --read-only records no run and refuses feedback
export const readOnly = () => document.querySelector('meta[name="orbitkb-mode"]')?.content === "read-only";

async function parse(response) {
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    const err = new Error(data.error + (data.hint ? ` (${data.hint})` : ""));
    err.data = data;
    throw err;
  }
  return data;
}

export async function get(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null));
  const qs = query.toString();
  return parse(await fetch(path + (qs ? `?${qs}` : ""), { headers: { accept: "application/json" } }));
}

export async function post(path, body) {
  return parse(await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-orbitkb-token": token() },
    body: JSON.stringify(body),
  }));
}
