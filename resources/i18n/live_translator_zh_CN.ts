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
        <source>Page options: ?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent</source>
        <translation>页面参数：?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent</translation>
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
        <source>a token or short cycle kept repeating</source>
        <translation>某个词元或短序列不断重复</translation>
    </message>
    <message>
        <source>⚠ Loop guard stopped the decoder on utterance {utterance}: {detail}. The translation was cut there.</source>
        <translation>⚠ 循环保护在第 {utterance} 句停止了解码器：{detail}。译文在此处截断。</translation>
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
        <source>Corrected by the final recognition; the live text read: {text}</source>
        <translation>已由最终识别更正；实时文字原为：{text}</translation>
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
