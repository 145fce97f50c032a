// The Speak button's AudioWorklet: the microphone's audio as 16 kHz mono 16-bit PCM frames of
// `frame` samples, posted to speak.js, which sends each as one WebSocket message. The context
// runs at 16 kHz where the browser can (Chromium); elsewhere this resamples (linear: speech
// recognition needs nothing finer).
"use strict";
class PcmFrames extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.frame = (options.processorOptions && options.processorOptions.frame) || 640;
    this.step = sampleRate / 16000; // input samples per output sample
    this.at = 0; // position of the next output sample in the input, relative to this block
    this.last = 0; // the previous block's last sample (interpolation across blocks)
    this.out = new Int16Array(this.frame);
    this.filled = 0;
  }

  push(value) {
    const v = Math.max(-1, Math.min(1, value));
    this.out[this.filled++] = v < 0 ? v * 32768 : v * 32767;
    if (this.filled === this.frame) {
      this.port.postMessage(this.out.buffer, [this.out.buffer]);
      this.out = new Int16Array(this.frame);
      this.filled = 0;
    }
  }

  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    if (this.step === 1) {
      for (let i = 0; i < channel.length; i++) this.push(channel[i]);
      return true;
    }
    while (this.at < channel.length) {
      const i = Math.floor(this.at);
      const frac = this.at - i;
      const before = i === 0 ? this.last : channel[i - 1];
      this.push(before + (channel[i] - before) * frac);
      this.at += this.step;
    }
    this.at -= channel.length;
    this.last = channel[channel.length - 1];
    return true;
  }
}
registerProcessor("pcm-frames", PcmFrames);
