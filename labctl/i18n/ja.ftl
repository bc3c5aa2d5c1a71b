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
wait-done = ステップ { $step }: { $what }: { $elapsed }で完了
wait-timed-out = ステップ { $step }: { $what }を { $limit } 待ちましたが時間切れです。最後の状態: { $observed }
wait-error = エラー: { $message }
