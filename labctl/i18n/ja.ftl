# labctl の `labctl lab` と `labctl sim` のメッセージ (日本語)。Fluent のメッセージ 1 つが 1 つの文で、
# `{ $name }` には labctl が値を入れる。メッセージ ID とプレースホルダーは en.ftl と同じにすること
# (テストが比べる)。ラボの用語: マシン設定、ノードラベル、検証、ロールバック、トライモード。

## 9 つのステップ

step-title-1 = シェルも SSH もない: docker exec sh とポート
step-title-2 = シェルの代わりに動いているサービス
step-title-3 = クラスタのメンバーとワーカーの MachineConfig バージョン
step-title-4 = API 経由の kubeconfig、Node、サブネット
step-title-5 = 再起動なしのノードラベル
step-title-6 = 自動で元に戻るトライモードのラベル
step-title-7 = 検証で拒否されるパッチ
step-title-8 = 受け入れられても kubelet を壊すパッチと、その修正
step-title-9 = レポート

## 実行と検証

step-prefix = ステップ { $step }: { $message }
run-step-header = == ステップ { $step }: { $title }
run-sim-cluster = シミュレートされたクラスタ: コントロールプレーン { $controlplane }、ワーカー { $worker } (127.0.0.1 上のテスト用の代役。talos-sim/README.md を参照)
run-files = { $dir } のファイル: 書いたもの: { $written }、残したもの: { $kept }
run-files-none = なし
run-interrupted = ステップ { $step } ({ $title }) の途中で中断されました ({ $signal })。{ $dir } のラボのファイルは完全な形で残っています: { $files }
run-to-go-on = 続けるには: { $command }
run-kept = ステップ { $step }: { $file } に記録済みのため残しました。検証も通ります: { $reason }
run-recorded-but = ステップ { $step }: { $file } は記録済みですが、{ $reason }
run-record-again = ステップ { $step } を記録し直すには: { $command } --redo { $step }
run-verification = == 検証 (`labctl lab check` と同じ)
run-check-failed = 実行は終わりましたが、`lab check` が通りません (上の行を参照)
check-pass = ステップ { $step }: 合格: { $reason }
check-fail = ステップ { $step }: 不合格: { $reason }
check-failed = 9 ステップ中 { $failed } ステップが不合格です
check-sim-refused = `lab check --sim` は新しいシミュレートされたクラスタを検証することになり、そこにはラボの変更が何もありません
check-sim-refused-hint = `labctl lab run --sim` は最後に自分の実行を検証します。シミュレートされたクラスタをもう一度検証するには、`labctl sim up --dir DIR` で起動し、`lab run` と `lab check` の両方に `--sim-dir DIR` を付けてください

## 待機

wait-waiting = ステップ { $step }: { $what }を待っています (上限 { $limit })
wait-still = ステップ { $step }: まだ{ $what }を待っています ({ $elapsed }/{ $limit }): { $observed }
wait-done = ステップ { $step }: { $what }を待ち、{ $elapsed } で完了しました
wait-timed-out = ステップ { $step }: { $what }を { $limit } 待ちましたが時間切れです。最後の状態: { $observed }
wait-error = エラー: { $message }

## `labctl lab` と `labctl sim` の --help

help-usage = 使い方:
help-options = オプション
help-commands = コマンド
help-flag = ヘルプを表示する
help-version = バージョンを表示する
help-default = 既定: { $value }
help-values = 指定できる値: { $values }
help-lab-about = ラボの 9 つのステップを、ラボのクラスタまたはシミュレートされたクラスタに対して実行し、検証する (lab/steps.md)
help-lab-run-about = Talos API を通してステップを実行し、ラボが指定するすべてのファイルを書く
help-lab-run-long =
    ラボのステップを Talos API (シェルは使わない)、docker CLI (ステップ 1、コンテナの起動時刻と再起動回数)、Kubernetes API (ステップ 4 で取得した kubeconfig を使用) を通して実行し、lab/steps.md が指定するすべてのファイルを --out にアトミックに書きます。待機には上限があり、進み具合を標準エラーに表示します。ノードでトライモードのロールバックが保留中の間は変更を適用せず (--force を除く)、すでに反映されている変更を二度適用することもありません。ステップ 9 の後、`labctl lab check` と同じように実行結果を検証します。

    `--sim` はこのプロセスの中でシミュレートされたクラスタを起動し、`--sim-dir DIR` は `labctl sim up --dir DIR` で起動したクラスタを使います。
help-lab-check-about = ラボのファイルを稼働中のクラスタと照合して検証し、ステップごとに合格/不合格を 1 行で示す
help-sim-about = シミュレートされた 2 ノードの Talos クラスタを動かす
help-sim-up-about = シミュレートされたクラスタをフォアグラウンドで起動する (Ctrl-C で停止)
help-arg-talosconfig = talosconfig (既定: $TALOSCONFIG、なければ ~/.talos/config)
help-arg-controlplane = コントロールプレーンノードの IP
help-arg-worker = ワーカーノードの IP
help-arg-docker = ステップ 1 と、コンテナの起動時刻・再起動回数の取得に使う docker プログラム
help-arg-sim_dir = `labctl sim up --dir DIR` で起動したシミュレートされたクラスタを使う (その talosconfig、コンテナ、ポート)
help-arg-sim = このプロセスの中でシミュレートされたクラスタを起動し、それに対して実行する (Docker も Talos も不要)
help-arg-out = ラボの出力ディレクトリ [既定: ラボのクラスタでは /root/talos-lab、--sim または --sim-dir では ./talos-lab。練習で本番の結果を上書きしないため]
lang-unknown = 言語 '{ $lang }' はありません。labctl が話せるのは { $languages } です
help-arg-lang = labctl のメッセージの言語: en または ja (既定: LC_ALL、LC_MESSAGES、LANG のロケール、なければ英語)。ラボのファイルはどの言語でも同じです
help-arg-step = このステップ (1-9) だけを実行する
help-arg-from = このステップからステップ 9 まで実行する
help-lab-run-try_timeout = ステップ 6 のトライモードのタイムアウト (整数秒)。try.json に記録される
help-arg-redo = ファイルがあってもこれらのステップを記録し直す (記録済みのステップは通常、残して検証する)
help-arg-force = すべてのステップを記録し直し、ノードでトライモードのロールバックが保留中でも適用し (ロールバックは取り消される)、別のクラスタの結果がある出力ディレクトリにも書く
help-lab-check-try_timeout = ステップ 6 で使ったはずのトライモードのタイムアウト (ラボでは 30s。短くした `lab run` ではその値を指定)
help-arg-output = 出力形式
help-arg-dir = talosconfig (admin)、talosconfig-operator、talosconfig-reader、kubeconfig、pki.json、sim.json を書く場所 (すべてモード 0600)。既存の pki.json は再利用される: 以前と同じ CA とクライアント ID
help-arg-with_secrets = このシークレットバンドル (`labctl gen secrets` で作成) の Talos API CA を使い、`labctl gen config --with-secrets` が書いた talosconfig がクラスタで使えるようにする (DIR/pki.json を置き換える)
help-arg-configs = ラボの設定の代わりに DIR/controlplane.yaml と DIR/worker.yaml (`labctl gen config` で作成) でノードを起動する

## Step 1: シェルも SSH もない

s1-exec-unexpected = docker exec { $container } sh が終了コード { $code }、出力 { $output } で終わりました。OCI ランタイムの "executable file not found" ではありません。コンテナは動いていますか (`docker ps`)？
s1-container-address = コンテナのアドレス
s1-done = ステップ 1: docker exec { $container } sh の終了コードは { $code } ({ $error })。{ $ip }:22 は{ $ssh_state }、{ $ip }:{ $port } は{ $api_state }
s1-check-exit-code = noshell.json の exec_sh_exit が { $code } です。存在しないシェルの docker exec は 127 で終了します (Docker 28 より前は 126)
s1-check-not-oci-line = noshell.json の exec_sh_error { $error } は OCI ランタイムの "executable file not found" の行ではありません
s1-check-multi-line = noshell.json の exec_sh_error が複数行です
s1-check-not-ip = noshell.json の node_ip { $ip } は IP アドレスではありません
s1-check-pass = exec sh の終了コード { $code }、ポート 22 は{ $ssh_state }、ポート 50000 は{ $api_state }

## Step 2: サービス

s2-done = ステップ 2: コントロールプレーンで動くサービス: { $controlplane }。ワーカー: { $worker }。コントロールプレーンだけ: { $only }
s2-check-pass = コントロールプレーンに { $controlplane } サービス、ワーカーに { $worker } サービス

## Step 3: メンバーとワーカーの MachineConfig バージョン

s3-done = ステップ 3: Talos { $talos }。メンバー: { $members }。ワーカーの MachineConfig バージョン: { $version }
s3-check-version-range = members.json の worker_mc_version { $recorded } が 1 から現在のバージョン { $now } までの範囲にありません
s3-check-pass = Talos { $talos }、メンバー { $members } 台、当時のワーカーのバージョン { $version }

## Step 4: kubeconfig、Node、サブネット

s4-done-overlap = ステップ 4: API サーバー { $api_server }。kubelet { $kubelet }。Pod のサブネット { $pods } と Service のサブネット { $services } はホストクラスタの範囲と重なります
s4-done-apart = ステップ 4: API サーバー { $api_server }。kubelet { $kubelet }。Pod のサブネット { $pods } と Service のサブネット { $services } はホストクラスタの範囲と重なりません
s4-check-not-regular = { $file } が通常のファイルではありません (シンボリックリンクは不可)
s4-check-mode = { $file } のモードが 0600 ではなく { $mode } です (クライアント鍵を含むファイルです)
s4-check-pass = Node { $nodes } 台、kubelet { $kubelet }、overlaps_host { $overlaps_host }

## Step 5: 再起動なしのノードラベル

s5-already-done = ステップ 5: ワーカーにはすでに { $label } が付いています。再度の適用はしません
s5-half-done = ワーカーにはすでに { $label } が付いていますが、{ $patch } か { $patch_out } がありません。labctl は同じ変更を二度適用しません
s5-redo-note = ステップ 5 をやり直すには、ワーカーからラベルを外して (`$patch: delete` を使ったパッチで) から、もう一度実行してください
s5-applied = ステップ 5: { $file } を { $worker } に再起動なしで適用しました。MachineConfig バージョン { $before } -> { $after }
s5-on-node = ステップ 5: ワーカーの Node に { $label } が付きました
labels-added = { $file } が machine.nodeLabels に加えるもの
s5-check-one-apply = patch.json のバージョン { $before } -> { $after } の差が 1 回の適用分ではありません
s5-check-started-at = patch.json の container_started_at (ワーカーのコンテナは再起動してはいけません)
s5-check-config-lacks = ワーカーのマシン設定に { $label } がありません
s5-check-node-lacks = Node { $node } に { $label } がありません
s5-check-pass = pool ラベルを再起動なしで適用し (バージョン { $before } -> { $after })、Node にも付いています

## Step 6: トライモードのラベル

s6-already-done = ステップ 6: 実施済みです ({ $file } にバージョン { $during } -> { $after } が記録されています)。再度の適用はしません。ステップを記録し直すには `--redo 6`
s6-needs-pool = ワーカーに { $label } が付いていません。先にステップ 5 を実行してください
s6-resume-pending = ステップ 6: labctl が { $time } UTC に適用したトライがまだ保留中です (実行が中断されました)。もう一度適用せず、そのロールバックを待ちます
s6-canary-left = ワーカーのマシン設定にすでに { $label } があるため、トライでは何も変わりません (ロールバックが取り消されたトライはこれを残します)
s6-pool-lost = ロールバックの後、ワーカーの Node からステップ 5 の pool ラベルが消えています
s6-done = ステップ 6: { $timeout } のトライモード: トライ中のバージョン { $during }、canary を Node で確認、バージョン { $after } にロールバック。pool ラベルは残っています
s6-done-not-seen = ステップ 6: { $timeout } のトライモード: トライ中のバージョン { $during }、canary を Node で確認できず、バージョン { $after } にロールバック。pool ラベルは残っています
s6-wait-rollback = MachineConfig の新しいバージョンになるトライモードのロールバック
s6-rollback-due = バージョン { $version }、ロールバックまで約 { $due } 秒
s6-check-timeout = try.json の timeout_sec は { $recorded } ですが、ラボのトライは --timeout={ $timeout } を使います (別の --try-timeout で練習した実行は、同じ --try-timeout で検証します)
s6-check-none-rolled-back = ロールバックされたものなし
s6-check-no-rollback-in-log = ワーカーの machined のログに、{ $timeout }s 後にロールバックされたトライモードの適用がありません (`apply config request: mode try` の後に `rolling back the configuration`。見つかったもの: { $seen })
s6-check-not-seen = try.json の seen_on_node が false です。canary ラベルが Node で確認されていません
s6-check-revert-version = try.json の version_after_revert { $after } が version_during { $during } + 1 ではありません (ロールバックで新しいバージョンが 1 つ増えます)
s6-check-after-step5 = try.json の version_during { $during } がステップ 5 のバージョン { $step5 } より後ではありません
s6-check-config-canary = ワーカーのマシン設定にまだ { $label } があります。トライがロールバックされていません
s6-check-node-canary = Node { $node } にまだ canary ラベルがあります
s6-check-node-pool = Node { $node } からステップ 5 の pool ラベルが消えています
s6-check-pass = トライモードで canary を確認 (バージョン { $during })、ロールバック済み (バージョン { $after })、pool は維持
s6-check-pass-log-gone = トライモードで canary を確認 (バージョン { $during })、ロールバック済み (バージョン { $after })、pool は維持 (machined のログはもうトライの時点までさかのぼれません)

## Step 7: 検証で拒否されるパッチ

s7-accepted = ワーカーが { $file } を受け入れました。拒否されるはずのパッチです
s7-sent = ステップ 7: { $file } を { $worker } に送りました。ノードの応答:
s7-not-validation = 適用は失敗しましたが、検証 (InvalidArgument) による失敗ではありません: { $error }。ステップをもう一度実行してください
s7-done = ステップ 7: { $worker } が拒否しました (labctl のローカル検証の予測どおり)。MachineConfig バージョン { $before } -> { $after }
s7-done-unlike = ステップ 7: { $worker } が拒否しました (labctl のローカル検証の予測とは異なる結果)。MachineConfig バージョン { $before } -> { $after }
s7-check-head = { $file } が talosctl の { $head } で始まっていません
s7-check-label-not-named = { $file } が無効なラベルを指摘していません ({ $expected })
s7-check-versions-differ = rejected.json のバージョン { $before } -> { $after } が違います。拒否された適用は何も変えません
s7-check-config-bad-label = ワーカーのマシン設定に無効なラベルがあります
s7-check-pass = ノードのテキストで拒否 (labctl の予測と完全に一致)。バージョンは { $version } のまま
s7-check-pass-unlike = ノードのテキストで拒否 (文言は labctl の予測と異なる)。バージョンは { $version } のまま

## Step 8: 受け入れられても kubelet を壊すパッチと、その修正

s8-already-done = ステップ 8: 実施済みです ({ $file } があり、ワーカーに max-pod はありません)。再度の適用はしません
s8-flag-there = ステップ 8: ワーカーにはすでに max-pod があります。再度の適用はせず、診断します
s8-wait-fail = kubelet が失敗するの
s8-log-empty = kubelet のログが空です
s8-diagnosed = ステップ 8: バージョン { $version } として受け入れられました。kubelet は { $state }: { $error }
s8-fixed = ステップ 8: { $file } を適用しました。MachineConfig バージョン { $version }
s8-wait-healthy = kubelet が正常に動くの
s8-wait-ready = ワーカーの Node が Ready になるの
s8-not-ready = { $node } は Ready ではありません
s8-recovered = ステップ 8: kubelet は正常に動いており、ワーカーの Node は Ready です
s8-check-args-added = { $file } が machine.kubelet.extraArgs に加えるもの
s8-check-args-fixed = { $patch } と { $fix } を当てた後の machine.kubelet.extraArgs
s8-check-fix-no-delete = { $file } が $patch: delete を使っていません
s8-check-state = kubelet-diag.json の service_state が { $state } です。停止した Talos サービスの状態 ({ $states } のいずれか。クラッシュループ中の kubelet は Waiting) ではありません
s8-check-no-cause = kubelet-diag.json の error_line { $line } に原因 ({ $cause }) がありません
s8-check-accepted-version = kubelet-diag.json の accepted_version { $accepted } が修正 (現在のバージョン { $current }) より前ではありません
s8-check-flag-left = ワーカーのマシン設定にまだ max-pod があります
s8-check-kubelet = kubelet が Running/OK ではなく { $state }/{ $health } です
s8-check-node-not-ready = Node { $node } が Ready ではありません
s8-check-pass = kubelet は { $state } でした (受け入れられたバージョン { $version }) が、今は Running/OK で、Node も Ready です

## Step 9: レポート

s9-noshell-missing = { $file } がありません。先にステップ 1 を実行してください
s9-no-crash-loop = ワーカーのどのサービスのイベントにもクラッシュループがありません。先にステップ 8 を実行してください
s9-no-apply-line = ワーカーの machined のログにマシン設定の適用の記録がありません
s9-done = ステップ 9: ワーカーのマシン設定の変更 { $changes } 回、コンテナの再起動 { $restarts } 回、検証が止めたのは { $field }、壊れたのは { $service }
s9-check-not-ip = noshell.json の node_ip が IP アドレスではありません
s9-check-not-apply-line = report.json の apply_log_line { $line } はマシン設定の適用の行ではありません
s9-check-line-not-in-log = report.json の apply_log_line がワーカーの machined のログにありません
s9-check-summary-short = report.json の summary は { $count } 文字で、80 文字に足りません
s9-check-pass = マシン設定の変更 { $changes } 回、再起動 { $restarts } 回、{ $field } を拒否、{ $service } が故障

## live.rs: 今のクラスタの状態

live-not-ip = { $what } { $value } は IP アドレスではありません
live-kubeconfig-no-context = kubeconfig: コンテキスト { $context } がありません
live-kubeconfig-no-server = kubeconfig: クラスタ { $cluster } に server がありません
live-config-unloadable = コントロールプレーンのマシン設定を読み込めません: { $error }
live-subnets = コントロールプレーンのサブネット: { $error }
live-kubeconfig-refetch = ステップ 4: kubeconfig を取得し直し、{ $path } を置き換えます: { $reason }
live-kubeconfig-kept = ステップ 4: { $path } でクラスタに接続できるため、取得し直しません
live-kubeconfig-vanished = kubeconfig が消えました
live-kubeconfig-not-utf8 = コントロールプレーンから取得した kubeconfig が UTF-8 ではありません
live-kubeconfig-absent = ファイルがありません
live-kubeconfig-not-regular = 通常のファイルではありません
live-cannot-chmod = { $path } を非公開 (モード 0600) にできません: { $error }
live-kubeconfig-chmod = ステップ 4: { $path } はクライアント鍵を含むため、モードを 0600 にしました
live-kubeconfig-elsewhere = このクラスタに接続できません ({ $error })
live-bad-patch-missing = { $file } がありません。先にステップ 7 を実行してください
live-bad-patch-passes = { $file } をワーカーのマシン設定にマージしても検証を通ります
live-rejection-no-field = { $file } の拒否がフィールドを示していません: { $message }

## patching.rs: ワーカーの変更

patch-wait-label-on = ワーカーの Node にラベル { $key }={ $value } が付くの
patch-wait-label-off = ワーカーの Node からラベル { $key } が消えるの
patch-label-is = { $node } の { $key } は { $value }
patch-label-absent = { $node } に { $key } はありません
patch-changes-nothing = このパッチはワーカーに何の変更も加えないため、何も送っていません (適用済みでは？)
patch-version-unknown = 適用後のワーカーの MachineConfig バージョンが不明です
patch-apply-failed = { $worker } へのパッチの適用に失敗しました: { $error }
patch-read-back-failed = { $error }。ワーカーの MachineConfig の読み直しにも失敗しました: { $read_error }
patch-lost-applied = パッチを { $worker } に送りましたが、応答が返ってきませんでした。今読み直したワーカーの MachineConfig はバージョン { $version } で、パッチを含んでいます。つまり適用されました
patch-lost-not-applied = パッチを { $worker } に送りましたが、応答が返ってきませんでした。今読み直したワーカーの MachineConfig はバージョン { $version } で、パッチを含んでいません。つまり適用されていません
patch-lost-go-on = 続けるには、ステップをもう一度実行してください (最初にクラスタを確認します): { $command }
patch-lost-undo = 変更は反映されていますが、{ $file } に記録するノードの応答が失われました。変更を元に戻してから (`$patch: delete` を使ったパッチで)、ステップをもう一度実行してください: { $command }
patch-platform-mode = ワーカーが報告したプラットフォームモードは使えません: { $error }

## evidence.rs: 検証が読んで比べるもの

ev-missing = { $file } がありません
ev-differs = { $what } は { $file } ですが、クラスタでは { $live } です
ev-not-representable = (表現できません)
ev-open = 開いている
ev-closed = 閉じている
ev-fetched-twice = { $file } に { $what } が { $count } 個あります ({ $names })。Talos クラスタのものだけでなければなりません (同じファイルに 2 回取得するとマージされます。新しいファイルに 1 回だけ取得してください)
ev-not-strategic-merge = { $file } は strategic merge パッチではありません (マルチドキュメントのマシン設定では JSON6902 パッチは拒否されます)
ev-follows-not-above = { $later } は { $later_value } で、前のステップが記録した { $earlier } { $earlier_value } より大きくありません。ファイルが別々の実行のものです。`--redo { $step }` でステップ { $step } を記録し直してください
ev-follows-below = { $later } は { $later_value } で、前のステップが記録した { $earlier } { $earlier_value } より小さくなっています。ファイルが別々の実行のものです。`--redo { $step }` でステップ { $step } を記録し直してください

## steps/mod.rs: ステップが共有するもの

steps-remove-canary = ワーカーから { $label } を外して (`$patch: delete` を使ったパッチで) から、ステップ 6 をもう一度実行してください

## session.rs: クラスタへの接続

session-sim-start = シミュレートされたクラスタを起動できません: { $error }
session-recreated = 作り直される前の{ $cluster }
session-other-cluster = { $dir } には{ $other } の結果があります。この実行の対象は{ $here } です
session-keep-both = 両方を残すには、`--out DIR` でこの実行に別のディレクトリを指定してください
session-write-over = または、このクラスタの結果で上書きするには: { $command } --force
session-no-numeric-version = { $node }: MachineConfig v1alpha1 に数値のバージョンがありません ({ $version })
session-no-kubeconfig = { $path } がありません。先にステップ 4 を実行してください
session-no-node = InternalIP が { $ip } の Kubernetes Node がありません (Node: { $nodes })
session-note = 注意: { $text }
session-forced = 警告: { $message } (--force のため、それでも適用します)

## state.rs: 出力ディレクトリを書いたクラスタ

state-simulated-cluster = シミュレートされたクラスタ ({ $endpoint })
state-talos-cluster = Talos クラスタ ({ $endpoint })

## try_guard.rs: トライモードのロールバックが保留中の間は変更しない

guard-pending = { $node } でトライモードのロールバックが保留中です ({ $due })。今ほかの変更を適用するとロールバックが取り消されます
guard-maybe-pending = { $node } でトライモードのロールバックがまだ保留中かもしれません ({ $due })。{ $request } UTC に何も適用しなかったリクエストがあり、そのリクエストもトライモードだったのでない限り、これでロールバックは取り消されています。今ほかの変更を適用すると確実に取り消されます
guard-cancelled = { $node } で { $applied } UTC に行ったトライモードの適用はロールバックされません。{ $request } UTC のほかの適用リクエスト (拒否されたものやドライランでも) がロールバックを取り消したため、トライのマシン設定が有効なまま残ります
guard-wait-rollback = ノードがロールバックするまで待ってから (`talosctl -n NODE logs machined` に `rolling back the configuration` と出ます)、ステップをもう一度実行してください
guard-apply-anyway = または、ロールバックを取り消してでも適用するには: { $command } --force
guard-due-in = あと { $seconds } 秒
guard-overdue = 予定を過ぎています
guard-due = { $at } UTC にタイムアウト { $timeout }s で適用。ロールバックの予定は { $due } UTC ({ $when })
guard-due-other-client = { $at } UTC にほかのクライアントが適用。ロールバックはその --timeout の後です (talosctl の既定は 1m0s)

## env.rs: Docker、Talos API、Kubernetes API

env-not-json = JSON ではありません: { $error }
env-no-such-container = コンテナがありません
env-no-address = コンテナにネットワーク { $network } 上のアドレスがありません
env-no-field = { $field } がありません
env-not-simulated = シミュレートされたコンテナランタイムではありません
env-inspect-failed = docker inspect { $name } が失敗しました: { $error }
env-docker-timeout = `{ $command }` が { $limit } 以内に終わりませんでした
env-docker-not-found = `{ $command }` を実行できません: { $program } が見つかりません。Docker CLI をインストールするか、`labctl lab run --sim` でシミュレートされたクラスタを使って練習してください
env-docker-failed = `{ $command }` を実行できません: { $error }
env-unreachable = Talos API に接続できません: { $error }
env-unreachable-hint = クラスタが動いていること、talosconfig のエンドポイントからクラスタに届くことを確認してください
env-talosconfig = talosconfig を読み込めません: { $error }
env-talosconfig-hint = --talosconfig FILE を指定するか、`labctl lab run --sim` でシミュレートされたクラスタを使って練習してください
env-kubeconfig = kubeconfig { $path } を使えません: { $error }

## files.rs: ラボのファイル

files-cannot-encode = { $file } をエンコードできません: { $error }
files-cannot-create = { $path } を作成できません: { $error }
files-cannot-write = { $path } に書き込めません: { $error }
files-not-utf8 = { $path } は UTF-8 のテキストではありません
files-cannot-read = { $path } を読めません: { $error }
files-position = { $line } 行目、{ $column } 列目
files-not-json = { $file } は正しい JSON ではありません: { $message }{ $at }
files-no-field-in = { $file }: { $path } に、ラボが求めるフィールド { $field } がありません{ $at }
files-no-field = { $file } に、ラボが求めるフィールド { $field } がありません{ $at }
files-wrong-type-in = { $file }: { $path } は { $found } ですが、ラボが求めるのは { $expected } です{ $at }
files-wrong-type = { $file } は { $found } ですが、ラボが求めるのは { $expected } です{ $at }
files-the-string = 文字列 { $value }
files-the-number = 数値 { $value }
files-an-array = 配列
files-an-object = オブジェクト
files-a-whole-number = 整数
files-a-number = 数値
files-true-or-false = true または false
files-a-string = 文字列
files-whole-number-in-range = 範囲内の整数

## lab/mod.rs: 引数とランタイム

lab-invalid-duration = 無効な期間 { $text }: 30s、1m、1m30s のように指定してください
lab-invalid-try-timeout = 無効なトライのタイムアウト { $text }: 1s 以上の整数秒で指定してください (try.json は秒単位で記録します)
lab-no-runtime = 非同期ランタイムを起動できません: { $error }

## sim.rs: `labctl sim up`

sim-cannot-write = { $dir } に書き込めません: { $error }
sim-banner = シミュレートされた Talos クラスタ (テスト用の代役。talos-sim/README.md を参照)
sim-run-the-lab = ラボの実行: labctl lab run --sim-dir { $dir } --out ./talos-lab
sim-check-it = 検証:       labctl lab check --sim-dir { $dir } --out ./talos-lab
sim-ctrl-c = Ctrl-C でクラスタを停止します
sim-waiting = Ctrl-C を待てません: { $error }
sim-make-secrets = 作成するには: labctl gen secrets
sim-certs-os-required = certs.os が必要です
sim-not-pki = { $path } はシミュレーターの PKI ではありません ({ $line } 行目、{ $column } 列目)。新しい ID で始めるには、このファイルを削除してください
