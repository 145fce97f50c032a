<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_TW">
<context>
    <name>Accessibility</name>
    <message>
        <source>Vertical scroll bar</source>
        <translation>垂直捲軸</translation>
    </message>
    <message>
        <source>Horizontal scroll bar</source>
        <translation>水平捲軸</translation>
    </message>
</context>
<context>
    <name>Alerts</name>
    <message>
        <source>This is a bug; the window keeps running.</source>
        <translation>這是程式的錯誤；視窗會繼續執行。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>關閉提示</translation>
    </message>
</context>
<context>
    <name>CaptionsPanel</name>
    <message>
        <source>This computer only (OBS, a second screen)</source>
        <translation>僅限本機（OBS、第二個螢幕）</translation>
    </message>
    <message>
        <source>Phones and computers on this network (with an access key)</source>
        <translation>此網路上的手機與電腦（需存取金鑰）</translation>
    </message>
    <message>
        <source>Live captions in a browser</source>
        <translation>在瀏覽器中顯示即時字幕</translation>
    </message>
    <message>
        <source>Who can open the captions</source>
        <translation>誰可以開啟字幕</translation>
    </message>
    <message>
        <source>Caption server port</source>
        <translation>字幕伺服器連接埠</translation>
    </message>
    <message>
        <source>Start serving captions</source>
        <translation>開始提供字幕</translation>
    </message>
    <message>
        <source>Copy URL</source>
        <translation>複製網址</translation>
    </message>
    <message>
        <source>Page options: ?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent</source>
        <translation>頁面參數：?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent</translation>
    </message>
    <message>
        <source>Who can open the page:</source>
        <translation>誰可以開啟頁面：</translation>
    </message>
    <message>
        <source>Port:</source>
        <translation>連接埠：</translation>
    </message>
    <message>
        <source>Stop serving captions</source>
        <translation>停止提供字幕</translation>
    </message>
    <message>
        <source>Scan with a phone on the same network</source>
        <translation>用同一網路上的手機掃描</translation>
    </message>
    <message>
        <source>Not serving. Start to get a page address for a browser, OBS or phones.</source>
        <translation>目前未提供字幕。開始後即可取得供瀏覽器、OBS 或手機開啟的頁面網址。</translation>
    </message>
</context>
<context>
    <name>Confidence</name>
    <message>
        <source>“{word}”: {percent}% sure</source>
        <translation>「{word}」：把握 {percent}%</translation>
    </message>
    <message>
        <source> — or: {alternatives}</source>
        <translation>——或：{alternatives}</translation>
    </message>
    <message>
        <source>the translator</source>
        <translation>翻譯模型</translation>
    </message>
    <message>
        <source>Words {who} was unsure of:</source>
        <translation>{who}沒有把握的詞：</translation>
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
        <translation>翻譯方向（Ctrl+D 切換）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>Start or stop listening (Ctrl+Return)</source>
        <translation>開始或停止聆聽（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Level of the source listened to (in a conversation: mine)</source>
        <translation>所聆聽音源的音量（對話中：我方）</translation>
    </message>
    <message>
        <source>Conversation: level of system audio (theirs)</source>
        <translation>對話：系統音訊的音量（對方）</translation>
    </message>
    <message>
        <source>Speak</source>
        <translation>朗讀</translation>
    </message>
    <message>
        <source>Speak each final translation aloud</source>
        <translation>朗讀每則最終譯文</translation>
    </message>
    <message>
        <source>their words</source>
        <translation>對方的話</translation>
    </message>
    <message>
        <source>my words</source>
        <translation>我的話</translation>
    </message>
    <message>
        <source>both</source>
        <translation>雙方</translation>
    </message>
    <message>
        <source>Conversation: whose translations are spoken</source>
        <translation>對話：朗讀誰的譯文</translation>
    </message>
    <message>
        <source>Voice for the translation&apos;s language</source>
        <translation>譯文語言的語音</translation>
    </message>
    <message>
        <source>Listen to</source>
        <translation>聆聽</translation>
    </message>
    <message>
        <source>Default voice</source>
        <translation>預設語音</translation>
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
        <translation>語句</translation>
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
        <translation>詞元</translation>
    </message>
    <message>
        <source>top alternatives (p)</source>
        <translation>最佳候選（機率）</translation>
    </message>
    <message>
        <source>self kv</source>
        <translation>自注意力快取</translation>
    </message>
    <message>
        <source>cross kv</source>
        <translation>交叉注意力快取</translation>
    </message>
    <message>
        <source>cache</source>
        <translation>快取</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>verify Δ</source>
        <translation>驗證 Δ</translation>
    </message>
    <message>
        <source>glossary</source>
        <translation>詞彙表</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>類型</translation>
    </message>
    <message>
        <source>encoder ms</source>
        <translation>編碼器毫秒</translation>
    </message>
    <message>
        <source>decode ms</source>
        <translation>解碼毫秒</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>詞元數</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>詞元/秒</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止原因</translation>
    </message>
    <message>
        <source>translation</source>
        <translation>譯文</translation>
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
        <translation>強制</translation>
    </message>
    <message>
        <source>loop: {detail}</source>
        <translation>迴圈：{detail}</translation>
    </message>
    <message>
        <source>provisional</source>
        <translation>暫定</translation>
    </message>
    <message>
        <source>final</source>
        <translation>最終</translation>
    </message>
    <message>
        <source>Verify (recompute each step without the cache)</source>
        <translation>驗證（每一步都不用快取重新計算）</translation>
    </message>
    <message>
        <source>Shows the largest cached-vs-uncached logit difference per step; slower, for checking the decoder.</source>
        <translation>顯示每一步使用快取與不用快取時 logit 的最大差值；速度較慢，用於檢查解碼器。</translation>
    </message>
    <message>
        <source>Follow</source>
        <translation>跟隨最新</translation>
    </message>
    <message>
        <source>a token or short cycle kept repeating</source>
        <translation>某個詞元或短序列不斷重複</translation>
    </message>
    <message>
        <source>⚠ Loop guard stopped the decoder on utterance {utterance}: {detail}. The translation was cut there.</source>
        <translation>⚠ 迴圈防護在第 {utterance} 句停止了解碼器：{detail}。譯文在此處截斷。</translation>
    </message>
    <message>
        <source>{steps} steps ({dropped} older dropped), {sentences} sentences</source>
        <translation>{steps} 步（已捨棄較早的 {dropped} 步），{sentences} 句</translation>
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
        <translation>啟用</translation>
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
        <translation>區分大小寫</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>詞彙表</translation>
    </message>
    <message>
        <source>Each term on the left is translated as the one on the right (and the other way round); terms in the spoken language are also given to speech recognition.</source>
        <translation>左側的每個詞彙都會譯為右側的詞彙（反之亦然）；所說語言的詞彙也會提供給語音辨識。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>匯入…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>匯出…</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>儲存</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Import a glossary</source>
        <translation>匯入詞彙表</translation>
    </message>
    <message>
        <source>Glossary (*.tsv *.txt);;All files (*)</source>
        <translation>詞彙表 (*.tsv *.txt);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Export the glossary</source>
        <translation>匯出詞彙表</translation>
    </message>
    <message>
        <source>Glossary (*.tsv)</source>
        <translation>詞彙表 (*.tsv)</translation>
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
        <translation>正在載入</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>執行中</translation>
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
        <translation>即時翻譯</translation>
    </message>
    <message>
        <source>latency –</source>
        <translation>延遲 –</translation>
    </message>
    <message>
        <source>End of speech → final translation: last (median of the session)</source>
        <translation>說話結束 → 最終譯文：最近一次（本次工作階段的中位數）</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>檔案(&amp;F)</translation>
    </message>
    <message>
        <source>Translate a &amp;recording…</source>
        <translation>翻譯錄音(&amp;R)…</translation>
    </message>
    <message>
        <source>Export transcript as &amp;text…</source>
        <translation>將逐字稿匯出為文字檔(&amp;T)…</translation>
    </message>
    <message>
        <source>Export transcript as S&amp;RT…</source>
        <translation>將逐字稿匯出為 SRT 字幕(&amp;R)…</translation>
    </message>
    <message>
        <source>Export transcript as &amp;WebVTT…</source>
        <translation>將逐字稿匯出為 WebVTT 字幕(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>結束(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>工作階段(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Start / stop</source>
        <translation>開始／停止(&amp;S)</translation>
    </message>
    <message>
        <source>Swap &amp;direction</source>
        <translation>交換方向(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Clear panels</source>
        <translation>清除面板(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>檢視(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Diagnostics panel</source>
        <translation>診斷面板(&amp;D)</translation>
    </message>
    <message>
        <source>Live &amp;captions in a browser</source>
        <translation>在瀏覽器中顯示即時字幕(&amp;C)</translation>
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
        <translation>詞彙表(&amp;G)…</translation>
    </message>
    <message>
        <source>Interface &amp;language</source>
        <translation>介面語言(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟隨系統</translation>
    </message>
    <message>
        <source>The interface language changes when you restart Live Translator.</source>
        <translation>重新啟動即時翻譯後，介面語言才會變更。</translation>
    </message>
    <message>
        <source>no translation model</source>
        <translation>沒有翻譯模型</translation>
    </message>
    <message>
        <source>ASR: Whisper {asr} · MT: {nmt}</source>
        <translation>語音辨識：Whisper {asr} · 機器翻譯：{nmt}</translation>
    </message>
    <message>
        <source>Loading models…</source>
        <translation>正在載入模型…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Translate a recording</source>
        <translation>翻譯錄音</translation>
    </message>
    <message>
        <source>Audio (*.wav *.flac *.ogg *.mp3);;All files (*)</source>
        <translation>音訊 (*.wav *.flac *.ogg *.mp3);;所有檔案 (*)</translation>
    </message>
    <message>
        <source>Spoke: {text}</source>
        <translation>已朗讀：{text}</translation>
    </message>
    <message>
        <source>latency {last} ms (median {median} ms)</source>
        <translation>延遲 {last} 毫秒（中位數 {median} 毫秒）</translation>
    </message>
    <message>
        <source>Finished: the recording has been translated</source>
        <translation>已完成：錄音已翻譯完畢</translation>
    </message>
    <message>
        <source>{state}: {detail}</source>
        <translation>{state}：{detail}</translation>
    </message>
    <message>
        <source>There is no transcript yet.</source>
        <translation>還沒有逐字稿。</translation>
    </message>
    <message>
        <source>Start a session; the transcript is saved as it goes.</source>
        <translation>請開始一個工作階段；逐字稿會隨時儲存。</translation>
    </message>
    <message>
        <source>Export transcript</source>
        <translation>匯出逐字稿</translation>
    </message>
    <message>
        <source>Text (*.txt)</source>
        <translation>文字檔 (*.txt)</translation>
    </message>
    <message>
        <source>Subtitles (*.{kind})</source>
        <translation>字幕 (*.{kind})</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已儲存 {path}</translation>
    </message>
</context>
<context>
    <name>ModelDialog</name>
    <message>
        <source>The download was cancelled.</source>
        <translation>下載已取消。</translation>
    </message>
    <message>
        <source>Start it again when you are ready.</source>
        <translation>準備好後可以重新開始。</translation>
    </message>
    <message>
        <source>Translation model: {direction}</source>
        <translation>翻譯模型：{direction}</translation>
    </message>
    <message>
        <source>The model doctor&apos;s finding appears here.</source>
        <translation>模型檢查的結果會顯示在這裡。</translation>
    </message>
    <message>
        <source>Choose folder…</source>
        <translation>選擇資料夾…</translation>
    </message>
    <message>
        <source>Use this model</source>
        <translation>使用此模型</translation>
    </message>
    <message>
        <source>A model folder on this computer</source>
        <translation>本機上的模型資料夾</translation>
    </message>
    <message>
        <source>ONNX encoder + decoder, tokenizer files, config</source>
        <translation>ONNX 編碼器 + 解碼器、分詞器檔案、組態</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>下載</translation>
    </message>
    <message>
        <source>Downloads unavailable: {reason}</source>
        <translation>無法下載：{reason}</translation>
    </message>
    <message>
        <source>default Hugging Face Hub; or a mirror&apos;s address</source>
        <translation>預設為 Hugging Face Hub；也可填寫鏡像網址</translation>
    </message>
    <message>
        <source>Download (needs access to a model hub)</source>
        <translation>下載（需要能存取模型庫）</translation>
    </message>
    <message>
        <source>Hub</source>
        <translation>模型庫</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Checking the model folder…</source>
        <translation>正在檢查模型資料夾…</translation>
    </message>
    <message>
        <source>no folder</source>
        <translation>沒有資料夾</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use:&lt;/b&gt; {folder} — can be used.</source>
        <translation>&lt;b&gt;使用中：&lt;/b&gt;{folder} —— 可以使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;In use:&lt;/b&gt; {folder} — cannot be used.</source>
        <translation>&lt;b&gt;使用中：&lt;/b&gt;{folder} —— 無法使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Checked:&lt;/b&gt; {folder} — can be used.</source>
        <translation>&lt;b&gt;已檢查：&lt;/b&gt;{folder} —— 可以使用。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Checked:&lt;/b&gt; {folder} — cannot be used.</source>
        <translation>&lt;b&gt;已檢查：&lt;/b&gt;{folder} —— 無法使用。</translation>
    </message>
    <message>
        <source>Choose a model folder</source>
        <translation>選擇模型資料夾</translation>
    </message>
    <message>
        <source>Checking {path}…</source>
        <translation>正在檢查 {path}…</translation>
    </message>
    <message>
        <source>Downloading {model}…</source>
        <translation>正在下載 {model}…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Download failed:&lt;/b&gt; {message}</source>
        <translation>&lt;b&gt;下載失敗：&lt;/b&gt;{message}</translation>
    </message>
</context>
<context>
    <name>ModelState</name>
    <message>
        <source>Could not look for a {direction} model: {error}</source>
        <translation>無法尋找{direction}模型：{error}</translation>
    </message>
    <message>
        <source>Open Models… to choose a model folder.</source>
        <translation>請開啟「模型」選單選擇模型資料夾。</translation>
    </message>
    <message>
        <source>No translation model for {direction}.</source>
        <translation>沒有{direction}的翻譯模型。</translation>
    </message>
    <message>
        <source>Open Models… to download one or to choose a model folder.</source>
        <translation>請開啟「模型」選單下載模型或選擇模型資料夾。</translation>
    </message>
    <message>
        <source>The {direction} model folder {path} is a file, not a folder.</source>
        <translation>{direction}模型資料夾 {path} 是一個檔案，不是資料夾。</translation>
    </message>
    <message>
        <source>The {direction} model folder {path} does not exist.</source>
        <translation>{direction}模型資料夾 {path} 不存在。</translation>
    </message>
    <message>
        <source>Open Models… to choose another folder or download a model.</source>
        <translation>請開啟「模型」選單選擇其他資料夾或下載模型。</translation>
    </message>
    <message>
        <source>The {direction} model in {path} cannot be read: {error}</source>
        <translation>無法讀取 {path} 中的{direction}模型：{error}</translation>
    </message>
    <message>
        <source>Choose another folder or download the model again.</source>
        <translation>請選擇其他資料夾或重新下載模型。</translation>
    </message>
    <message>
        <source>The model in {path} translates {directions}, not {direction}.</source>
        <translation>{path} 中的模型翻譯方向是 {directions}，不是 {direction}。</translation>
    </message>
    <message>
        <source>Choose a model for this direction.</source>
        <translation>請選擇適用於此方向的模型。</translation>
    </message>
    <message>
        <source>missing {files}</source>
        <translation>缺少 {files}</translation>
    </message>
    <message>
        <source>see the finding</source>
        <translation>請查看檢查結果</translation>
    </message>
    <message>
        <source>The {direction} model in {path} cannot be used: {reason}.</source>
        <translation>{path} 中的{direction}模型無法使用：{reason}。</translation>
    </message>
    <message>
        <source>Open Models… to choose another folder or download the model again.</source>
        <translation>請開啟「模型」選單選擇其他資料夾或重新下載模型。</translation>
    </message>
    <message>
        <source>Optimised copy: none ({error})</source>
        <translation>最佳化副本：無（{error}）</translation>
    </message>
    <message>
        <source>Optimised copy: in the cache</source>
        <translation>最佳化副本：已在快取中</translation>
    </message>
    <message>
        <source>Optimised copy: none, runs as it is ({reason})</source>
        <translation>最佳化副本：無，依原樣執行（{reason}）</translation>
    </message>
    <message>
        <source>both directions</source>
        <translation>雙向</translation>
    </message>
</context>
<context>
    <name>ModelsBar</name>
    <message>
        <source>Get model…</source>
        <translation>取得模型…</translation>
    </message>
    <message>
        <source>{direction}: checking…</source>
        <translation>{direction}：正在檢查…</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>更換…</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺少</translation>
    </message>
    <message>
        <source>unusable</source>
        <translation>無法使用</translation>
    </message>
    <message>
        <source>Speech recognition: Whisper {name}</source>
        <translation>語音辨識：Whisper {name}</translation>
    </message>
</context>
<context>
    <name>Overlay</name>
    <message>
        <source>Live Translator subtitles</source>
        <translation>即時翻譯字幕</translation>
    </message>
    <message>
        <source>Subtitle overlay</source>
        <translation>浮動字幕</translation>
    </message>
    <message>
        <source>Subtitles</source>
        <translation>字幕</translation>
    </message>
    <message>
        <source>Resize subtitles</source>
        <translation>調整字幕大小</translation>
    </message>
</context>
<context>
    <name>OverlayDialog</name>
    <message>
        <source>Subtitle overlay settings</source>
        <translation>浮動字幕設定</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> 點</translation>
    </message>
    <message>
        <source>Show the source text above the translation</source>
        <translation>在譯文上方顯示原文</translation>
    </message>
    <message>
        <source>Font</source>
        <translation>字型</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>字型大小</translation>
    </message>
    <message>
        <source>Text colour</source>
        <translation>文字顏色</translation>
    </message>
    <message>
        <source>Source text colour</source>
        <translation>原文顏色</translation>
    </message>
    <message>
        <source>Background colour</source>
        <translation>背景顏色</translation>
    </message>
    <message>
        <source>Background opacity</source>
        <translation>背景不透明度</translation>
    </message>
    <message>
        <source>Lines shown</source>
        <translation>顯示行數</translation>
    </message>
    <message>
        <source>Show source text</source>
        <translation>顯示原文</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Source colour</source>
        <translation>原文顏色</translation>
    </message>
    <message>
        <source>Background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行數</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>關閉</translation>
    </message>
    <message>
        <source>Choose a colour</source>
        <translation>選擇顏色</translation>
    </message>
</context>
<context>
    <name>Sources</name>
    <message>
        <source>Default microphone</source>
        <translation>預設麥克風</translation>
    </message>
    <message>
        <source>Mic: {name}</source>
        <translation>麥克風：{name}</translation>
    </message>
    <message>
        <source>System audio (what the computer plays)</source>
        <translation>系統音訊（電腦正在播放的聲音）</translation>
    </message>
    <message>
        <source>System: {name}</source>
        <translation>系統：{name}</translation>
    </message>
    <message>
        <source>Conversation: me (mic) + them (system audio)</source>
        <translation>對話：我（麥克風）+ 對方（系統音訊）</translation>
    </message>
    <message>
        <source>System audio: not available</source>
        <translation>系統音訊：無法使用</translation>
    </message>
    <message>
        <source>What to listen to: a microphone, system audio, or both as a conversation</source>
        <translation>聆聽什麼：麥克風、系統音訊，或兩者同時作為對話</translation>
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
        <translation>對方</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>語音</translation>
    </message>
    <message>
        <source>Translation</source>
        <translation>譯文</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>複製</translation>
    </message>
    <message>
        <source>Copy every source sentence</source>
        <translation>複製所有原文句子</translation>
    </message>
    <message>
        <source>Copy every translation</source>
        <translation>複製所有譯文</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Clear both panels (the saved transcript is kept)</source>
        <translation>清除兩個面板（已儲存的逐字稿會保留）</translation>
    </message>
    <message>
        <source>Press Start (Ctrl+Return) and speak, or choose File ▸ Translate a recording…</source>
        <translation>按「開始」（Ctrl+Return）後說話，或選擇「檔案 ▸ 翻譯錄音…」</translation>
    </message>
    <message>
        <source>Speech ({language})</source>
        <translation>語音（{language}）</translation>
    </message>
    <message>
        <source>Translation ({language})</source>
        <translation>譯文（{language}）</translation>
    </message>
    <message>
        <source>Speech (me: {mine}, them: {theirs})</source>
        <translation>語音（我：{mine}，對方：{theirs}）</translation>
    </message>
    <message>
        <source>Corrected by the final recognition; the live text read: {text}</source>
        <translation>已由最終辨識更正；即時文字原為：{text}</translation>
    </message>
</context>
<context>
    <name>ViewOptions</name>
    <message>
        <source>&amp;Reading mode: settled text only</source>
        <translation>閱讀模式：只顯示已確定的文字(&amp;R)</translation>
    </message>
    <message>
        <source>Live translations show only the part that will not change any more</source>
        <translation>即時譯文只顯示不會再變動的部分</translation>
    </message>
    <message>
        <source>Chinese &amp;script</source>
        <translation>中文字體(&amp;S)</translation>
    </message>
    <message>
        <source>How Chinese is written: recognised speech, translations, transcripts</source>
        <translation>中文的書寫方式：適用於辨識的語音、譯文與逐字稿</translation>
    </message>
    <message>
        <source>Mark words &amp;Whisper was unsure of (slower finals)</source>
        <translation>標出 Whisper 沒有把握的詞（最終結果較慢）(&amp;W)</translation>
    </message>
    <message>
        <source>Underline recognised words Whisper gave a low probability; takes effect at the next start</source>
        <translation>為 Whisper 辨識機率較低的詞加上底線；下次開始時生效</translation>
    </message>
    <message>
        <source>Subtitle &amp;overlay</source>
        <translation>浮動字幕(&amp;O)</translation>
    </message>
    <message>
        <source>Translations in a small always-on-top window over other windows</source>
        <translation>在置頂的小視窗中顯示譯文，覆蓋在其他視窗之上</translation>
    </message>
    <message>
        <source>Overlay &amp;click-through (mouse goes to the window below)</source>
        <translation>浮動字幕點擊穿透（滑鼠操作下方視窗）(&amp;C)</translation>
    </message>
    <message>
        <source>Overlay &amp;settings…</source>
        <translation>浮動字幕設定(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Larger text</source>
        <translation>放大文字(&amp;L)</translation>
    </message>
    <message>
        <source>S&amp;maller text</source>
        <translation>縮小文字(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>佈景主題(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟隨系統(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>淺色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
</context>
</TS>
