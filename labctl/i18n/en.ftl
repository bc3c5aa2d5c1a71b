# labctl's messages for `labctl lab` and `labctl sim`, in English (the fallback for every other
# language). One Fluent message per text; `{ $name }` is a value labctl fills in. A new language is
# one more file beside this one, named by its code (`ko.ftl`), with the same message ids and the same
# placeholders (a test compares them).

## The nine steps

step-title-1 = no shell, no SSH: docker exec sh and the ports
step-title-2 = the services running instead of a shell
step-title-3 = the cluster's members and the worker's MachineConfig version
step-title-4 = the kubeconfig through the API, the Nodes and the subnets
step-title-5 = a node label without a reboot
step-title-6 = a label in try mode that reverts by itself
step-title-7 = a patch that validation rejects
step-title-8 = an accepted patch that breaks the kubelet, and its fix
step-title-9 = the report

## Running and checking

step-prefix = step { $step }: { $message }
run-step-header = == step { $step }: { $title }
run-sim-cluster = simulated cluster: control plane { $controlplane } and worker { $worker } on 127.0.0.1 (a test double, see talos-sim/README.md)
run-files = files in { $dir }: written: { $written }; kept: { $kept }
run-files-none = none
run-interrupted = interrupted ({ $signal }) during step { $step } ({ $title }); the lab files in { $dir } are kept whole: { $files }
run-to-go-on = to go on: { $command }
run-kept = step { $step }: already recorded in { $file }; kept, and it checks: { $reason }
run-recorded-but = step { $step }: { $file } is already recorded, but: { $reason }
run-record-again = to record step { $step } again: { $command } --redo { $step }
run-verification = == verification (as `labctl lab check`)
run-check-failed = the run finished, but `lab check` does not pass (see the lines above)
check-pass = step { $step }: PASS: { $reason }
check-fail = step { $step }: FAIL: { $reason }
check-failed = { $failed } of 9 steps do not pass
check-sim-refused = `lab check --sim` would check a new simulated cluster, which has none of the lab's changes
check-sim-refused-hint = `labctl lab run --sim` checks its own run at the end; to check a simulated cluster again, start one with `labctl sim up --dir DIR` and use `--sim-dir DIR` with both `lab run` and `lab check`

## Waiting

wait-waiting = step { $step }: waiting for { $what } (limit { $limit })
wait-still = step { $step }: still waiting for { $what } ({ $elapsed }/{ $limit }): { $observed }
wait-done = step { $step }: { $what }: done after { $elapsed }
wait-timed-out = step { $step }: timed out after { $limit } waiting for { $what }; last seen: { $observed }
wait-error = error: { $message }
