// Live captions: loads /transcript, then follows /events (server-sent events).
// One DOM node per utterance, updated in place: settled text is only ever appended to, so it
// never jumps; the provisional rest is lighter. Every update carries the whole caption and a
// `seq` number, so updates and snapshots may arrive in any order: the newest wins.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const key = params.get("key");
  const show = ["translation", "source", "both"].includes(params.get("show")) ? params.get("show") : "both";
  const lines = Math.min(Math.max(parseInt(params.get("lines") || "4", 10) || 4, 1), 50);
  const root = document.documentElement.style;
  const size = params.get("size");
  if (size && /^\d+(\.\d+)?(px|pt|em|rem|vh|vw|vmin|%)?$/.test(size)) root.setProperty("--size", /\d$/.test(size) ? size + "px" : size);
  const font = params.get("font");
  if (font && /^[\w\s,'"-]{1,200}$/.test(font)) root.setProperty("--font", font + ", sans-serif");
  const bg = params.get("bg");
  if (bg === "transparent") document.body.classList.add("transparent");
  else if (bg && CSS.supports("color", bg)) root.setProperty("--bg", bg);
  document.body.classList.add("show-" + show);

  const list = document.getElementById("captions");
  const status = document.getElementById("status");
  const rows = new Map(); // utterance id -> row
  let session = null;
  let sessionSeq = -1; // seq at which `session` began (comparable within one server's life)

  function withKey(path) {
    return key ? path + "?key=" + encodeURIComponent(key) : path;
  }

  function setStatus(text) {
    status.textContent = text;
    status.hidden = !text;
    document.body.dataset.connected = text ? "no" : "yes";
  }

  function makeLine(kind) {
    const p = document.createElement("p");
    p.className = "line " + kind;
    const settled = document.createElement("span");
    settled.className = "settled";
    const pending = document.createElement("span");
    pending.className = "pending";
    p.append(settled, pending);
    p.hidden = true;
    return { p, settled, pending };
  }

  function makeRow(id) {
    const el = document.createElement("div");
    el.className = "caption";
    el.dataset.id = String(id);
    const speaker = document.createElement("span");
    speaker.className = "speaker";
    speaker.hidden = true;
    const row = { id, el, seq: 0, speaker, source: makeLine("source"), translation: makeLine("translation") };
    el.append(speaker);
    if (show !== "translation") el.append(row.source.p);
    if (show !== "source") el.append(row.translation.p);
    // In utterance order: almost always at the end.
    let before = null;
    for (const other of rows.values()) {
      if (other.id > id && (before === null || other.id < before.id)) before = other;
    }
    list.insertBefore(el, before ? before.el : null);
    rows.set(id, row);
    return row;
  }

  function setLine(line, text, stable, final) {
    text = text || "";
    stable = Math.max(0, Math.min(final ? text.length : stable || 0, text.length));
    const settled = text.slice(0, stable);
    const old = line.settled.textContent;
    if (settled !== old) {
      if (settled.startsWith(old)) line.settled.append(settled.slice(old.length)); // grows at its end only
      else line.settled.textContent = settled; // revised (a new hypothesis): replace
    }
    const pending = text.slice(stable);
    if (line.pending.textContent !== pending) line.pending.textContent = pending;
    line.p.classList.toggle("final", final);
    line.p.classList.toggle("provisional", !final);
    line.p.hidden = !text;
  }

  function trim() {
    if (rows.size <= lines) return;
    const ids = [...rows.keys()].sort((a, b) => a - b);
    for (const id of ids.slice(0, ids.length - lines)) {
      rows.get(id).el.remove();
      rows.delete(id);
    }
  }

  function clear() {
    for (const row of rows.values()) row.el.remove();
    rows.clear();
  }

  function adopt(id, seq) {
    if (id === session) return true;
    if (seq < sessionSeq) return false; // from before the current session
    clear();
    session = id;
    sessionSeq = seq;
    return true;
  }

  function showCaption(c) {
    let row = rows.get(c.id);
    if (!row) {
      const ids = [...rows.keys()];
      if (ids.length >= lines && c.id < Math.min(...ids)) return; // older than what is shown
      row = makeRow(c.id);
    }
    if (c.seq <= row.seq) return; // already newer
    row.seq = c.seq;
    if (c.source_final && !c.source && !c.translation) { // nothing was said after all (noise)
      row.el.remove();
      rows.delete(c.id);
      return;
    }
    setLine(row.source, c.source, c.source_stable, c.source_final);
    setLine(row.translation, c.translation, c.translation_stable, c.translation_final);
    if (c.speaker) {
      row.speaker.textContent = c.speaker;
      row.speaker.className = "speaker " + c.speaker.replace(/[^\w-]/g, "");
      row.speaker.hidden = false;
    }
    row.el.classList.toggle("final", !!c.translation_final);
    trim();
  }

  function apply(update) {
    if (update.type === "hello" || update.type === "reset") {
      adopt(update.session, update.seq);
    } else if (update.type === "status") {
      document.body.dataset.state = update.state;
    } else if (update.type === "caption") {
      if (update.session === session || adopt(update.session, update.seq)) showCaption(update);
    }
  }

  async function loadTranscript() {
    const response = await fetch(withKey("transcript"), { cache: "no-store", credentials: "same-origin" });
    if (response.status === 401 || response.status === 403) {
      setStatus("This page needs the access key: open the URL the app shows.");
      return false;
    }
    if (!response.ok) throw new Error("HTTP " + response.status);
    const doc = await response.json();
    if (adopt(doc.session, doc.seq)) {
      for (const c of doc.captions) showCaption(c);
      if (doc.state) document.body.dataset.state = doc.state;
    }
    return true;
  }

  let source = null;
  function connect() {
    source = new EventSource(withKey("events"));
    source.onopen = () => {
      sessionSeq = -1; // maybe a new server: its numbers start again
      setStatus("");
      loadTranscript().catch(() => {});
    };
    source.onmessage = (message) => apply(JSON.parse(message.data));
    source.onerror = () => {
      setStatus("Waiting for the app…");
      if (source.readyState === EventSource.CLOSED) { // refused outright: retry ourselves
        source.close();
        setTimeout(connect, 2000);
      }
    };
  }

  setStatus("Waiting for the app…");
  loadTranscript()
    .then((ok) => { if (ok) connect(); })
    .catch(() => connect());
})();
