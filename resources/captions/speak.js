// Guest speech: the Speak button, shown only on a page opened with the speaking link over HTTPS
// (the server's hello says `speak: true`). A tap starts: the phone's microphone (getUserMedia)
// goes through an AudioWorklet (speak-worklet.js) into 40 ms frames of 16 kHz mono 16-bit PCM,
// each one binary WebSocket message to /speak with the speaking key and the guest's name; a
// second tap stops. When the app closes the stream it says why, and the page shows it.
"use strict";
(function () {
  const FRAME = 640; // samples: 40 ms at 16 kHz
  const NAME_STORE = "live-translator-guest-name";
  const key = new URLSearchParams(location.search).get("key") || "";
  const bar = document.getElementById("speak-bar");
  const button = document.getElementById("speak");
  const nameField = document.getElementById("speak-name");
  const note = document.getElementById("speak-note");
  let current = null; // {socket, context, stream}

  function word(name) {
    const words = window.CAPTION_WORDS;
    return (words[document.documentElement.lang] || words.en)[name];
  }

  function label(name) {
    button.dataset.text = name; // the page's language switch relabels it too
    button.textContent = word(name);
    button.setAttribute("aria-pressed", name === "stop" ? "true" : "false");
  }

  function say(text) {
    note.textContent = text || "";
    note.hidden = !text;
  }

  document.addEventListener("captions-hello", (e) => {
    if (e.detail.speak && location.protocol === "https:") {
      bar.hidden = false;
      document.body.classList.add("guest");
    }
  });
  try { nameField.value = localStorage.getItem(NAME_STORE) || ""; } catch (e) { /* private mode */ }

  function stop(reason) {
    const was = current;
    current = null;
    label("speak");
    document.body.classList.remove("speaking");
    if (reason !== undefined) say(reason);
    if (!was) return;
    if (was.socket.readyState <= 1) was.socket.close(1000);
    if (was.stream) for (const track of was.stream.getTracks()) track.stop();
    if (was.context) was.context.close();
  }

  async function start() {
    const name = nameField.value.trim();
    try { localStorage.setItem(NAME_STORE, name); } catch (e) { /* private mode */ }
    say("");
    label("stop");
    const q = new URLSearchParams({ key, name });
    const socket = new WebSocket(`wss://${location.host}/speak?${q}`);
    socket.binaryType = "arraybuffer";
    const session = (current = { socket, context: null, stream: null });
    socket.onclose = (e) => {
      if (current === session) stop(e.reason || (e.code === 1000 ? "" : word("speakLost")));
    };
    const waiting = []; // frames made before the socket opened: sent then, so no first word is cut
    socket.onopen = () => { for (const frame of waiting.splice(0)) socket.send(frame); };
    try {
      // The worklet is ready before the microphone opens: what is said from the first moment is kept.
      let context;
      // "playback": larger audio buffers, more slack for a busy phone's audio thread (a few tens of ms
      // later; not shown to matter: the input this bench once lost came from its sound server's clock)
      const options = { sampleRate: 16000, latencyHint: "playback" };
      try { context = new AudioContext(options); } catch (e) { context = new AudioContext({ latencyHint: "playback" }); }
      session.context = context;
      await context.audioWorklet.addModule("speak-worklet.js");
      session.stream = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      if (current !== session) return stop();
      const node = new AudioWorkletNode(context, "pcm-frames", { processorOptions: { frame: FRAME } });
      node.port.onmessage = (m) => {
        if (socket.readyState === 1) socket.send(m.data);
        else if (socket.readyState === 0 && waiting.length < 40) waiting.push(m.data); // 1.6 s: within the burst the app allows
      };
      const mute = context.createGain(); // the graph must reach the output to run; nothing is heard
      mute.gain.value = 0;
      context.createMediaStreamSource(session.stream).connect(node);
      node.connect(mute).connect(context.destination);
      document.body.classList.add("speaking");
    } catch (error) {
      if (current === session) stop(word("noMicrophone") + " (" + (error.name || error) + ")");
    }
  }

  button.addEventListener("click", () => (current ? stop() : start()));
})();
