// Live captions: loads /transcript, then follows /events (server-sent events).
// One DOM node per utterance, updated in place: settled text is only ever appended to, so it
// never jumps; the provisional rest is lighter. Every update carries the whole caption and a
// `seq` number, so updates and snapshots may arrive in any order: the newest wins.
// Each listener chooses (the settings panel, remembered in localStorage; the URL's options are
// where a page starts): what to show, the Chinese script (converted by the app), text size,
// theme, how many captions, and the language of the page's own words (captions-words.js; from
// the browser's languages until the listener picks one). The page keeps the whole session: scrolling up stops following
// (nothing the reader has passed moves), "Back to live" returns.
"use strict";
(function () {
  const params = new URLSearchParams(location.search);
  const key = params.get("key");
  const STORE = "live-translator-captions";
  const CHOICES = {
    show: ["translation", "source", "both"],
    script: ["", "simplified", "traditional", "hongkong"],
    theme: ["dark", "light"],
    language: Object.keys(window.CAPTION_WORDS),
  };
  const SIZE = /^\d+(\.\d+)?(px|pt|em|rem|vh|vw|vmin|%)?$/;

  function valid(name, value) {
    if (name in CHOICES) return CHOICES[name].includes(value);
    if (name === "size") return value === "" || (typeof value === "string" && SIZE.test(value));
    if (name === "lines") return Number.isInteger(value) && value >= 1 && value <= 50;
    return false;
  }

  // The first of the browser's languages the page has words in; Chinese by its script (zh-TW,
  // zh-HK and zh-MO write Traditional).
  function browserLanguage() {
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const lower = tag.toLowerCase();
      if (/^zh-(hant|tw|hk|mo)\b/.test(lower)) return "zh-Hant";
      if (lower === "zh" || lower.startsWith("zh-")) return "zh-Hans";
      if (lower === "en" || lower.startsWith("en-")) return "en";
    }
    return "en";
  }

  // The script a listener reads Chinese in, from the browser's first Chinese language:
  // Hong Kong's for zh-HK and zh-MO, Traditional for zh-TW and zh-Hant, else "" (the
  // session's choice, Simplified unless the host chose otherwise).
  function browserScript() {
    for (const tag of navigator.languages || [navigator.language || ""]) {
      const lower = tag.toLowerCase();
      if (/^zh-(hant-)?(hk|mo)\b/.test(lower)) return "hongkong";
      if (/^zh-(hant|tw)\b/.test(lower)) return "traditional";
      if (lower === "zh" || lower.startsWith("zh-")) return "";
    }
    return "";
  }

  function fromUrl() {
    const size = params.get("size") || "";
    const lines = parseInt(params.get("lines") || "4", 10);
    const chosen = {
      show: params.get("show"), script: params.get("script") || browserScript(), theme: "dark",
      language: browserLanguage(),
      size: /\d$/.test(size) ? size + "px" : size, lines: Number.isNaN(lines) ? 4 : Math.min(Math.max(lines, 1), 50),
    };
    const defaults = { show: "both", script: "", theme: "dark", size: "", lines: 4, language: "en" };
    for (const name of Object.keys(defaults)) if (!valid(name, chosen[name])) chosen[name] = defaults[name];
    return chosen;
  }

  function remembered() {
    try {
      const saved = JSON.parse(localStorage.getItem(STORE) || "{}");
      return Object.fromEntries(Object.entries(saved).filter(([name, value]) => valid(name, value)));
    } catch (error) {
      return {}; // storage refused (private mode) or garbage: the URL's options
    }
  }

  const saved = remembered();
  const settings = Object.assign(fromUrl(), saved); // a choice made on the page wins
  let languageChosen = "language" in saved; // else the browser's, as it is then
  let scriptChosen = "script" in saved; // else the URL's or the browser's
  const root = document.documentElement;
  const font = params.get("font");
  if (font && /^[\w\s,'"-]{1,200}$/.test(font)) root.style.setProperty("--font", font + ", sans-serif");
  const bg = params.get("bg");
  if (bg === "transparent") root.classList.add("transparent");
  else if (bg && CSS.supports("color", bg)) root.style.setProperty("--bg", bg);

  const scroller = document.getElementById("scroller");
  const list = document.getElementById("captions");
  const status = document.getElementById("status");
  const liveButton = document.getElementById("live");
  const rows = new Map(); // utterance id -> row
  const order = []; // the rows, by utterance id
  let session = null;
  let sessionSeq = -1; // seq at which `session` began (comparable within one server's life)
  let following = true;
  let maxRows = 5000; // the page keeps what /transcript keeps: its `max_captions`, once loaded

  function query(extra) {
    const q = new URLSearchParams(extra);
    if (settings.script) q.set("script", settings.script);
    if (key) q.set("key", key);
    const text = q.toString();
    return text ? "?" + text : "";
  }

  function word(name) {
    return window.CAPTION_WORDS[settings.language][name];
  }

  let statusWord = "connecting";
  function setStatus(name) { // a key of captions-words.js; "" when connected
    statusWord = name;
    status.textContent = name ? word(name) : "";
    status.hidden = !name;
    document.body.dataset.connected = name ? "no" : "yes";
  }

  function showWords() {
    root.lang = settings.language;
    for (const el of document.querySelectorAll("[data-text]")) el.textContent = word(el.dataset.text);
    for (const el of document.querySelectorAll("[data-label]")) el.setAttribute("aria-label", word(el.dataset.label));
    setStatus(statusWord);
  }

  // --- rows ------------------------------------------------------------------------------
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
    el.append(speaker, row.source.p, row.translation.p);
    let at = order.length; // in utterance order: almost always at the end
    while (at > 0 && order[at - 1].id > id) at--;
    list.insertBefore(el, at < order.length ? order[at].el : null);
    order.splice(at, 0, row);
    rows.set(id, row);
    return row;
  }

  function removeRow(row) {
    row.el.remove();
    rows.delete(row.id);
    order.splice(order.indexOf(row), 1);
  }

  function setLine(line, text, stable, final) {
    text = text || "";
    stable = Math.max(0, Math.min(final ? text.length : stable || 0, text.length));
    const settled = text.slice(0, stable);
    const old = line.settled.textContent;
    if (settled !== old) {
      if (settled.startsWith(old)) line.settled.append(settled.slice(old.length)); // grows at its end only
      else line.settled.textContent = settled; // revised (a new hypothesis, a correction): replace
    }
    const pending = text.slice(stable);
    if (line.pending.textContent !== pending) line.pending.textContent = pending;
    line.p.classList.toggle("final", final);
    line.p.classList.toggle("provisional", !final);
    line.p.hidden = !text;
  }

  // While following, only the last `lines` captions are visible; the others keep their place.
  let boundary = 0; // where the visible captions began at the last look: rows before it are marked
  function markPast(all) {
    const next = Math.max(0, order.length - settings.lines);
    const first = all ? 0 : Math.max(0, Math.min(boundary, next) - 2);
    for (let i = first; i < order.length; i++) order[i].el.classList.toggle("past", i < next);
    boundary = next;
  }

  function clear() {
    for (const row of order) row.el.remove();
    rows.clear();
    order.length = 0;
    boundary = 0;
  }

  // --- following and scrolling back -----------------------------------------------------------
  function atEnd() {
    return scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 4;
  }

  function setFollowing(on) {
    following = on;
    document.body.classList.toggle("back", !on);
    liveButton.hidden = on;
    if (on) scroller.scrollTop = scroller.scrollHeight;
  }

  function firstVisibleRow() {
    const top = scroller.scrollTop;
    let lo = 0, hi = order.length - 1, found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const el = order[mid].el;
      if (el.offsetTop + el.offsetHeight > top) { found = order[mid]; hi = mid - 1; } else lo = mid + 1;
    }
    return found;
  }

  // Change the captions; a reader who scrolled back keeps their place (the first caption in view
  // stays where it is drawn), a follower stays at the end.
  function changing(change) {
    if (following) {
      change();
      markPast(false);
      scroller.scrollTop = scroller.scrollHeight;
      return;
    }
    const anchor = firstVisibleRow();
    const before = anchor ? anchor.el.getBoundingClientRect().top : 0;
    change();
    markPast(false);
    if (anchor && anchor.el.isConnected) scroller.scrollTop += anchor.el.getBoundingClientRect().top - before;
  }

  scroller.addEventListener("scroll", () => {
    if (atEnd() !== following) setFollowing(atEnd());
  }, { passive: true });
  // Nothing to scroll yet (the session fits the page) but the reader wants what is past: show it.
  const wantsBack = () => following && order.some((row) => row.el.classList.contains("past"))
    && scroller.scrollTop === 0;
  scroller.addEventListener("wheel", (e) => {
    if (e.deltaY < 0 && wantsBack()) setFollowing(false);
  }, { passive: true });
  let touchY = null;
  scroller.addEventListener("touchstart", (e) => { touchY = e.touches[0].clientY; }, { passive: true });
  scroller.addEventListener("touchmove", (e) => {
    if (touchY !== null && e.touches[0].clientY - touchY > 30 && wantsBack()) setFollowing(false);
  }, { passive: true });
  document.addEventListener("keydown", (e) => {
    if (panel.contains(document.activeElement)) return;
    if (["ArrowUp", "PageUp", "Home"].includes(e.key) && wantsBack()) setFollowing(false);
    else if (e.key === "End" && !following) setFollowing(true);
  });
  liveButton.addEventListener("click", () => setFollowing(true));
  window.addEventListener("resize", () => { if (following) scroller.scrollTop = scroller.scrollHeight; });

  // --- captions in ---------------------------------------------------------------------------
  function adopt(id, seq) {
    if (id === session) return true;
    if (seq < sessionSeq) return false; // from before the current session
    clear();
    setFollowing(true);
    session = id;
    sessionSeq = seq;
    return true;
  }

  function showCaption(c) {
    let row = rows.get(c.id);
    if (!row) {
      if (order.length >= maxRows && c.id < order[0].id) return; // older than what is kept
      row = makeRow(c.id);
    }
    if (c.seq <= row.seq) return; // already newer
    row.seq = c.seq;
    if (c.source_final && !c.source && !c.translation) { // nothing was said after all (noise)
      removeRow(row);
      return;
    }
    setLine(row.source, c.source, c.source_stable, c.source_final);
    setLine(row.translation, c.translation, c.translation_stable, c.translation_final);
    if (c.language === "en" || c.language === "zh") { // face to face: each line says its language
      row.source.p.dataset.language = c.language;
      row.translation.p.dataset.language = c.language === "en" ? "zh" : "en";
    }
    if (c.speaker) {
      row.speaker.textContent = c.speaker;
      row.speaker.className = "speaker " + c.speaker.replace(/[^\w-]/g, "");
      row.speaker.hidden = false;
    }
    row.el.classList.toggle("final", !!c.translation_final);
    row.el.classList.toggle("corrected", !!c.corrected);
    while (order.length > maxRows) removeRow(order[0]);
  }

  function apply(update) {
    if (update.type === "hello" || update.type === "reset") {
      adopt(update.session, update.seq);
    } else if (update.type === "status") {
      document.body.dataset.state = update.state;
    } else if (update.type === "caption") {
      if (update.session === session || adopt(update.session, update.seq)) changing(() => showCaption(update));
    }
  }

  async function loadTranscript() {
    const response = await fetch("transcript" + query(), { cache: "no-store", credentials: "same-origin" });
    if (response.status === 401 || response.status === 403) {
      setStatus("needsKey");
      return false;
    }
    if (!response.ok) throw new Error("HTTP " + response.status);
    const doc = await response.json();
    if (Number.isInteger(doc.max_captions) && doc.max_captions > 0) maxRows = doc.max_captions;
    if (adopt(doc.session, doc.seq)) {
      changing(() => { for (const c of doc.captions) showCaption(c); });
      if (doc.state) document.body.dataset.state = doc.state;
    }
    return true;
  }

  let source = null;
  // A connection that died silently (a dropped Wi-Fi) gives no error for minutes, open or still
  // opening: the app sends a keep-alive every `keepalive_s`, so hearing nothing for 2.5 times that
  // means start again on a new connection.
  let quietSince = Date.now(), keepaliveMs = 15000;
  function heard() { quietSince = Date.now(); }
  setInterval(() => {
    if (source && source.readyState !== EventSource.CLOSED && Date.now() - quietSince > 2.5 * keepaliveMs) {
      source.close();
      setStatus("waiting");
      connect();
    }
  }, 1000);

  function connect() {
    heard();
    source = new EventSource("events" + query());
    source.onopen = () => {
      heard();
      sessionSeq = -1; // maybe a new server: its numbers start again
      setStatus("");
      loadTranscript().catch(() => {});
    };
    source.onmessage = (message) => {
      heard();
      const update = JSON.parse(message.data);
      if (update.type === "hello" && update.keepalive_s > 0) keepaliveMs = update.keepalive_s * 1000;
      apply(update);
    };
    source.addEventListener("keepalive", heard);
    source.onerror = () => {
      setStatus("waiting");
      if (source.readyState === EventSource.CLOSED) { // refused outright: retry ourselves
        source.close();
        setTimeout(connect, 2000);
      }
    };
  }

  function start() {
    setStatus("waiting");
    loadTranscript()
      .then((ok) => { if (ok) connect(); })
      .catch(() => connect());
  }

  // --- the settings panel --------------------------------------------------------------------
  const panel = document.getElementById("settings");
  const opener = document.getElementById("settings-button");
  const scriptChoice = document.getElementById("opt-script");
  const languageChoice = document.getElementById("opt-language");
  const sizeChoice = document.getElementById("opt-size");
  const linesChoice = document.getElementById("opt-lines");
  const bilingual = document.getElementById("opt-bilingual");

  function showLook() {
    document.body.classList.remove("show-translation", "show-source", "show-both");
    document.body.classList.add("show-" + settings.show);
    root.classList.toggle("light", settings.theme === "light");
    if (settings.size) root.style.setProperty("--size", settings.size);
    else root.style.removeProperty("--size");
    markPast(true);
    if (following) scroller.scrollTop = scroller.scrollHeight;
  }

  function showDownloads() {
    for (const format of ["txt", "srt", "vtt"]) {
      const link = document.getElementById("download-" + format);
      link.href = "transcript" + query({ format, bilingual: bilingual.checked ? "1" : "0" });
      link.download = "captions." + format;
    }
  }

  function fillPanel() {
    for (const name of ["show", "theme"]) {
      for (const input of panel.querySelectorAll(`input[name=${name}]`)) input.checked = input.value === settings[name];
    }
    scriptChoice.value = settings.script;
    languageChoice.value = settings.language;
    if (![...sizeChoice.options].some((o) => o.value === settings.size)) {
      sizeChoice.add(new Option(settings.size, settings.size)); // a size the URL gave
    }
    sizeChoice.value = settings.size;
    linesChoice.value = String(settings.lines);
    showDownloads();
  }

  function choose(name, value) {
    if (!valid(name, value) || settings[name] === value) return;
    settings[name] = value;
    languageChosen = languageChosen || name === "language";
    scriptChosen = scriptChosen || name === "script";
    const kept = Object.assign({}, settings);
    if (!languageChosen) delete kept.language;
    if (!scriptChosen) delete kept.script;
    try {
      localStorage.setItem(STORE, JSON.stringify(kept));
    } catch (error) { /* not remembered (storage refused); still used on this page */ }
    if (name === "script") { // the app converts: fetch the session again in this script
      if (source) source.close();
      clear();
      session = null;
      sessionSeq = -1;
      showDownloads();
      start();
    } else if (name === "language") {
      showWords();
    } else {
      showLook();
    }
  }

  function openPanel(open) {
    panel.hidden = !open;
    opener.setAttribute("aria-expanded", String(open));
    document.body.classList.toggle("settings-open", open);
    if (open) {
      fillPanel();
      (panel.querySelector("input:checked") || panel.querySelector("select")).focus();
    } else {
      opener.focus();
    }
  }

  opener.addEventListener("click", () => openPanel(panel.hidden));
  document.getElementById("settings-close").addEventListener("click", () => openPanel(false));
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") openPanel(false); });
  panel.addEventListener("change", (e) => {
    const target = e.target;
    if (target.name === "show" || target.name === "theme") choose(target.name, target.value);
    else if (target === scriptChoice) choose("script", target.value);
    else if (target === languageChoice) choose("language", target.value);
    else if (target === sizeChoice) choose("size", target.value);
    else if (target === linesChoice) choose("lines", parseInt(target.value, 10));
    else if (target === bilingual) showDownloads();
  });

  showWords();
  showLook();
  showDownloads();
  start();
})();
