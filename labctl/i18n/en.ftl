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

## --help of `labctl lab` and `labctl sim` (English is the doc comments' text; a test keeps them equal)

help-usage = Usage:
help-options = Options
help-commands = Commands
help-flag = Print help
help-version = Print version
help-default = default: { $value }
help-values = possible values: { $values }
help-lab-about = Drive and check the lab's nine steps (lab/steps.md) against the lab's cluster or a simulated one
help-lab-run-about = Perform the steps through the Talos API and write every file the lab names
help-lab-run-long =
    Perform the lab's steps through the Talos API (never a shell), the docker CLI (step 1, container start time and restart count) and the Kubernetes API (with the kubeconfig fetched in step 4), writing every file lab/steps.md names into --out, atomically. Waits are bounded and show progress on stderr. No change is applied while a try-mode rollback is pending on the node (unless --force), and a step whose change is already in place is not applied twice. After step 9 the run is verified as `labctl lab check` does.

    `--sim` starts a simulated cluster in this process; `--sim-dir DIR` uses one started by `labctl sim up --dir DIR`.
help-lab-check-about = Verify the lab's files against the live cluster, one pass/fail line per step
help-sim-about = Run the simulated two-node Talos cluster
help-sim-up-about = Start the simulated cluster in the foreground (Ctrl-C stops it)
help-arg-talosconfig = The talosconfig (default: $TALOSCONFIG, else ~/.talos/config)
help-arg-controlplane = The control plane node's IP
help-arg-worker = The worker node's IP
help-arg-docker = The docker program used for step 1 and the container start time and restart count
help-arg-sim_dir = Use the simulated cluster started by `labctl sim up --dir DIR` (its talosconfig, containers and ports)
help-arg-sim = Start a simulated cluster in this process and run against it (no Docker, no Talos needed)
help-arg-out = The lab's output directory [default: /root/talos-lab for the lab's cluster, ./talos-lab with --sim or --sim-dir, so that a rehearsal never writes over the real results]
lang-unknown = unknown language '{ $lang }': labctl speaks { $languages }
help-arg-lang = The language of labctl's messages: en or ja (default: the locale's, from LC_ALL, LC_MESSAGES or LANG, else English). The lab's files are the same in every language
help-arg-step = Run only this step (1-9)
help-arg-from = Run from this step to step 9
help-lab-run-try_timeout = The try-mode timeout of step 6 (whole seconds), recorded in try.json
help-arg-redo = Record these steps again although their files are there (a recorded step is otherwise kept and verified)
help-arg-force = Record every step again, apply even while a try-mode rollback is pending on the node (this cancels the rollback), and write into an output directory that holds another cluster's results
help-lab-check-try_timeout = The try-mode timeout step 6 must have used (the lab asks for 30s; give the one of a shorter `lab run`)
help-arg-output = Output format
help-arg-dir = Where to write talosconfig (admin), talosconfig-operator, talosconfig-reader, kubeconfig, pki.json and sim.json (all mode 0600). A pki.json already there is reused: the same CA and client identities as before
help-arg-with_secrets = Use this secrets bundle's Talos API CA (from `labctl gen secrets`), so that the talosconfig `labctl gen config --with-secrets` wrote works against the cluster (replaces DIR/pki.json)
help-arg-configs = Boot the nodes with DIR/controlplane.yaml and DIR/worker.yaml (from `labctl gen config`) instead of the lab's configs

## Step 1: no shell, no SSH

s1-exec-unexpected = docker exec { $container } sh exited { $code } with { $output }, not the OCI runtime's "executable file not found": is the container running (`docker ps`)?
s1-container-address = the container's address
s1-done = step 1: docker exec { $container } sh exited { $code }: { $error }; { $ip }:22 { $ssh_state }, { $ip }:{ $port } { $api_state }
s1-check-exit-code = noshell.json exec_sh_exit is { $code }: docker exec of a missing shell exits 127 (126 before Docker 28)
s1-check-not-oci-line = noshell.json exec_sh_error { $error } is not the OCI runtime's "executable file not found" line
s1-check-multi-line = noshell.json exec_sh_error is more than one line
s1-check-not-ip = noshell.json node_ip { $ip } is not an IP
s1-check-pass = exec sh exits { $code }, port 22 { $ssh_state }, port 50000 { $api_state }

## Step 2: the services

s2-done = step 2: control plane runs { $controlplane }; worker runs { $worker }; only on the control plane: { $only }
s2-check-pass = { $controlplane } services on the control plane, { $worker } on the worker

## Step 3: the members and the worker's MachineConfig version

s3-done = step 3: Talos { $talos }; members { $members }; worker MachineConfig version { $version }
s3-check-version-range = members.json worker_mc_version { $recorded } is not between 1 and the current version { $now }
s3-check-pass = Talos { $talos }, { $members } members, worker version { $version } then

## Step 4: the kubeconfig, the Nodes and the subnets

s4-done-overlap = step 4: API server { $api_server }; kubelet { $kubelet }; pods { $pods } and services { $services } overlap the host cluster's ranges
s4-done-apart = step 4: API server { $api_server }; kubelet { $kubelet }; pods { $pods } and services { $services } do not overlap the host cluster's ranges
s4-check-not-regular = { $file } is not a regular file (no symbolic links)
s4-check-mode = { $file } has mode { $mode }, not 0600 (it holds a client key)
s4-check-pass = { $nodes } nodes, kubelet { $kubelet }, overlaps_host { $overlaps_host }

## Step 5: a node label without a reboot

s5-already-done = step 5: the worker already carries { $label }: not applied again
s5-half-done = the worker already carries { $label }, but { $patch } or { $patch_out } is missing: labctl does not apply a change twice
s5-redo-note = to redo step 5, remove the label from the worker (a patch with `$patch: delete`), then run it again
s5-applied = step 5: applied { $file } to { $worker } without a reboot: MachineConfig version { $before } -> { $after }
s5-on-node = step 5: { $label } is on the worker's Node
labels-added = what { $file } adds to machine.nodeLabels
s5-check-one-apply = patch.json versions { $before } -> { $after } do not differ by one apply
s5-check-started-at = patch.json container_started_at (the worker container must not restart)
s5-check-config-lacks = the worker's config lacks { $label }
s5-check-node-lacks = the Node { $node } lacks { $label }
s5-check-pass = pool label applied without a reboot (version { $before } -> { $after }) and on the Node

## Step 6: a label in try mode

s6-already-done = step 6: already done ({ $file } records versions { $during } -> { $after }): not applied again; `--redo 6` records the step again
s6-needs-pool = the worker does not carry { $label }: run step 5 first
s6-resume-pending = step 6: the try labctl applied at { $time } UTC is still pending (the run was interrupted): waiting for its rollback instead of applying it again
s6-canary-left = the worker's config already carries { $label }, so the try would change nothing (a try whose rollback was cancelled leaves it)
s6-pool-lost = after the rollback the pool label of step 5 is missing from the worker's Node
s6-done = step 6: try mode for { $timeout }: version { $during } during, canary seen on the Node, rolled back to version { $after }; pool label kept
s6-done-not-seen = step 6: try mode for { $timeout }: version { $during } during, canary NOT seen on the Node, rolled back to version { $after }; pool label kept
s6-wait-rollback = the try-mode rollback (a new MachineConfig version)
s6-rollback-due = version { $version }, the rollback is due in about { $due }s
s6-check-timeout = try.json timeout_sec is { $recorded }, but the lab's try uses --timeout={ $timeout } (a rehearsal run with another --try-timeout is checked with the same --try-timeout)
s6-check-none-rolled-back = none rolled back
s6-check-no-rollback-in-log = the worker's machined log shows no try-mode apply rolled back { $timeout }s later (`apply config request: mode try`, then `rolling back the configuration`; seen: { $seen })
s6-check-not-seen = try.json seen_on_node is false: the canary label was not seen on the Node
s6-check-revert-version = try.json version_after_revert { $after } is not version_during { $during } + 1 (the rollback is one new version)
s6-check-after-step5 = try.json version_during { $during } is not after step 5's version { $step5 }
s6-check-config-canary = the worker's config still carries { $label }: the try has not rolled back
s6-check-node-canary = the Node { $node } still has the canary label
s6-check-node-pool = the Node { $node } lost the pool label of step 5
s6-check-pass = canary seen in try mode (version { $during }), rolled back (version { $after }), pool kept
s6-check-pass-log-gone = canary seen in try mode (version { $during }), rolled back (version { $after }), pool kept (the machined log no longer reaches back to the try)

## Step 7: a patch that validation rejects

s7-accepted = the worker ACCEPTED { $file }: it should have been rejected
s7-sent = step 7: sent { $file } to { $worker }; the node answered:
s7-not-validation = the apply failed, but not by validation (InvalidArgument): { $error }; run the step again
s7-done = step 7: rejected by { $worker } (as labctl's local validation predicted); MachineConfig version { $before } -> { $after }
s7-done-unlike = step 7: rejected by { $worker } (NOT as labctl's local validation predicted); MachineConfig version { $before } -> { $after }
s7-check-head = { $file } does not start with talosctl's { $head }
s7-check-label-not-named = { $file } does not name the invalid label ({ $expected })
s7-check-versions-differ = rejected.json versions { $before } -> { $after } differ: a rejected apply changes nothing
s7-check-config-bad-label = the worker's config carries the invalid label
s7-check-pass = rejected with the node's text (exactly as labctl predicts); version stayed { $version }
s7-check-pass-unlike = rejected with the node's text (worded unlike labctl's prediction); version stayed { $version }

## Step 8: an accepted patch that breaks the kubelet, and its fix

s8-already-done = step 8: already done ({ $file } exists, no max-pod on the worker): not applied again
s8-flag-there = step 8: the worker already carries max-pod: not applied again; diagnosing
s8-wait-fail = the kubelet to fail
s8-log-empty = the kubelet's log is empty
s8-diagnosed = step 8: accepted as version { $version }; the kubelet is { $state }: { $error }
s8-fixed = step 8: applied { $file }: MachineConfig version { $version }
s8-wait-healthy = the kubelet to run healthy
s8-wait-ready = the worker's Node to be Ready
s8-not-ready = { $node } is not Ready
s8-recovered = step 8: the kubelet runs healthy and the worker's Node is Ready
s8-check-args-added = what { $file } adds to machine.kubelet.extraArgs
s8-check-args-fixed = machine.kubelet.extraArgs after { $patch } and { $fix }
s8-check-fix-no-delete = { $file } does not use $patch: delete
s8-check-state = kubelet-diag.json service_state is { $state }, not the state of a Talos service that is down (one of { $states }; a crash-looping kubelet reads Waiting)
s8-check-no-cause = kubelet-diag.json error_line { $line } does not state the cause ({ $cause })
s8-check-accepted-version = kubelet-diag.json accepted_version { $accepted } is not before the fix (current version { $current })
s8-check-flag-left = the worker's config still carries max-pod
s8-check-kubelet = the kubelet is { $state }/{ $health }, not Running/OK
s8-check-node-not-ready = the Node { $node } is not Ready
s8-check-pass = kubelet was { $state } (accepted version { $version }), now Running/OK and the Node Ready

## Step 9: the report

s9-noshell-missing = { $file } is missing: run step 1 first
s9-no-crash-loop = no worker service shows a crash loop in its events: run step 8 first
s9-no-apply-line = the worker's machined log records no configuration apply
s9-done = step 9: { $changes } changes to the worker's config, { $restarts } container restarts, validation caught { $field }, { $service } broke
s9-check-not-ip = noshell.json node_ip is not an IP
s9-check-not-apply-line = report.json apply_log_line { $line } is not a configuration-apply line
s9-check-line-not-in-log = report.json apply_log_line is not a line of the worker's machined log
s9-check-summary-short = report.json summary has { $count } characters, fewer than 80
s9-check-pass = { $changes } config changes, { $restarts } restarts, { $field } rejected, { $service } broke

## live.rs: what the cluster says now

live-not-ip = { $what } { $value } is not an IP address
live-kubeconfig-no-context = kubeconfig: no context { $context }
live-kubeconfig-no-server = kubeconfig: cluster { $cluster } has no server
live-config-unloadable = the control plane's machine config does not load: { $error }
live-subnets = the control plane's subnets: { $error }
live-kubeconfig-refetch = step 4: fetching the kubeconfig again, replacing { $path }: { $reason }
live-kubeconfig-kept = step 4: { $path } reaches the cluster: not fetched again
live-kubeconfig-vanished = the kubeconfig vanished
live-kubeconfig-not-utf8 = the kubeconfig from the control plane is not UTF-8
live-kubeconfig-absent = it does not exist
live-kubeconfig-not-regular = it is not a regular file
live-cannot-chmod = cannot make { $path } private (mode 0600): { $error }
live-kubeconfig-chmod = step 4: { $path } holds a client key: its mode is now 0600
live-kubeconfig-elsewhere = it does not reach this cluster ({ $error })
live-bad-patch-missing = { $file } is missing: run step 7 first
live-bad-patch-passes = { $file } merged into the worker's config passes validation
live-rejection-no-field = the rejection of { $file } names no field: { $message }

## patching.rs: changing the worker

patch-wait-label-on = label { $key }={ $value } on the worker's Node
patch-wait-label-off = label { $key } to leave the worker's Node
patch-label-is = { $key } is { $value } on { $node }
patch-label-absent = { $key } is not on { $node }
patch-changes-nothing = the patch changes nothing on the worker: nothing was sent (already applied?)
patch-version-unknown = the worker's MachineConfig version after the apply is unknown
patch-apply-failed = applying the patch to { $worker } failed: { $error }
patch-read-back-failed = { $error }; reading the worker's MachineConfig back failed too: { $read_error }
patch-lost-applied = the patch was sent to { $worker }, but its answer never came; the worker's MachineConfig, read back now, is version { $version } and holds the patch: it was applied
patch-lost-not-applied = the patch was sent to { $worker }, but its answer never came; the worker's MachineConfig, read back now, is version { $version } and does not hold the patch: it was not applied
patch-lost-go-on = run the step again to go on (it checks the cluster first): { $command }
patch-lost-undo = the change is in, but the node's answer, which { $file } records, is lost: undo the change (a patch with `$patch: delete`), then run the step again: { $command }
patch-platform-mode = the worker reports an unusable platform mode: { $error }

## evidence.rs: what a check reads and compares

ev-missing = { $file } is missing
ev-differs = { $what } is { $file }, the cluster says { $live }
ev-not-representable = (not representable)
ev-open = open
ev-closed = closed
ev-fetched-twice = { $file } holds { $count } { $what } ({ $names }): it must hold only the Talos cluster's (a second fetch into the same file merges; fetch it once, into a new file)
ev-not-strategic-merge = { $file } is not a strategic merge patch (a JSON6902 patch is rejected on a multi-document config)
ev-follows-not-above = { $later } is { $later_value }, not above { $earlier } { $earlier_value }, which an earlier step recorded: the files come from different runs; record step { $step } again with `--redo { $step }`
ev-follows-below = { $later } is { $later_value }, below { $earlier } { $earlier_value }, which an earlier step recorded: the files come from different runs; record step { $step } again with `--redo { $step }`

## steps/mod.rs: what the steps share

steps-remove-canary = remove { $label } from the worker (a patch with `$patch: delete`), then run step 6 again

## session.rs: the connection to the cluster

session-sim-start = cannot start the simulated cluster: { $error }
session-recreated = { $cluster } that has since been recreated
session-other-cluster = { $dir } holds the results of { $other }; this run is against { $here }
session-keep-both = keep both: give this run another directory with `--out DIR`
session-write-over = or write this cluster's results over them: { $command } --force
session-no-numeric-version = { $node }: MachineConfig v1alpha1 has no numeric version ({ $version })
session-no-kubeconfig = { $path } does not exist: run step 4 first
session-no-node = no Kubernetes Node has InternalIP { $ip } (nodes: { $nodes })
session-note = note: { $text }
session-forced = warning: { $message } (--force: applying anyway)

## state.rs: which cluster wrote the output directory

state-simulated-cluster = a simulated cluster at { $endpoint }
state-talos-cluster = a Talos cluster at { $endpoint }

## try_guard.rs: no change while a try-mode rollback is pending

guard-pending = a try-mode rollback is pending on { $node } ({ $due }); applying another change now would cancel the rollback
guard-maybe-pending = a try-mode rollback may still be pending on { $node } ({ $due }); a request at { $request } UTC that applied nothing cancelled it unless that request was in try mode too; applying another change now would cancel it for sure
guard-cancelled = the try-mode apply at { $applied } UTC on { $node } will not be rolled back: another apply request at { $request } UTC (even a rejected one or a dry run) cancelled its rollback, so the try's config stays active
guard-wait-rollback = wait until the node has rolled back (`talosctl -n NODE logs machined` shows `rolling back the configuration`), then run the step again
guard-apply-anyway = or apply anyway and cancel the rollback: { $command } --force
guard-due-in = in { $seconds }s
guard-overdue = overdue
guard-due = applied at { $at } UTC with a { $timeout }s timeout: the rollback is due at { $due } UTC ({ $when })
guard-due-other-client = applied at { $at } UTC by another client: the rollback is due after its --timeout (talosctl's default is 1m0s)

## env.rs: Docker, the Talos API and the Kubernetes API

env-not-json = not JSON: { $error }
env-no-such-container = no such container
env-no-address = the container has no address on the network { $network }
env-no-field = no { $field }
env-not-simulated = not a simulated container runtime
env-inspect-failed = docker inspect { $name } failed: { $error }
env-docker-timeout = `{ $command }` did not finish within { $limit }
env-docker-not-found = cannot run `{ $command }`: { $program } not found; install the Docker CLI, or rehearse on the simulated cluster with `labctl lab run --sim`
env-docker-failed = cannot run `{ $command }`: { $error }
env-unreachable = cannot reach the Talos API: { $error }
env-unreachable-hint = check that the cluster is running and that the talosconfig's endpoints reach it
env-talosconfig = cannot load the talosconfig: { $error }
env-talosconfig-hint = pass --talosconfig FILE, or rehearse on the simulated cluster with `labctl lab run --sim`
env-kubeconfig = cannot use the kubeconfig { $path }: { $error }

## files.rs: the lab's files

files-cannot-encode = cannot encode { $file }: { $error }
files-cannot-create = cannot create { $path }: { $error }
files-cannot-write = cannot write { $path }: { $error }
files-not-utf8 = { $path } is not UTF-8 text
files-cannot-read = cannot read { $path }: { $error }
files-position = line { $line }, column { $column }
files-not-json = { $file } is not valid JSON: { $message }{ $at }
files-no-field-in = { $file }: { $path } has no field { $field }, which the lab asks for{ $at }
files-no-field = { $file } has no field { $field }, which the lab asks for{ $at }
files-wrong-type-in = { $file }: { $path } is { $found }, where the lab asks for { $expected }{ $at }
files-wrong-type = { $file } is { $found }, where the lab asks for { $expected }{ $at }
files-the-string = the string { $value }
files-the-number = the number { $value }
files-an-array = an array
files-an-object = an object
files-a-whole-number = a whole number
files-a-number = a number
files-true-or-false = true or false
files-a-string = a string
files-whole-number-in-range = a whole number in range

## lab/mod.rs: arguments and the runtime

lab-invalid-duration = invalid duration { $text }: expected e.g. 30s, 1m or 1m30s
lab-invalid-try-timeout = invalid try timeout { $text }: use whole seconds, at least 1s (try.json records seconds)
lab-no-runtime = cannot start the async runtime: { $error }

## sim.rs: `labctl sim up`

sim-cannot-write = cannot write { $dir }: { $error }
sim-banner = simulated Talos cluster (a test double, see talos-sim/README.md)
sim-run-the-lab = run the lab:  labctl lab run --sim-dir { $dir } --out ./talos-lab
sim-check-it = check it:     labctl lab check --sim-dir { $dir } --out ./talos-lab
sim-ctrl-c = Ctrl-C stops the cluster
sim-waiting = waiting for Ctrl-C: { $error }
sim-make-secrets = make one with: labctl gen secrets
sim-certs-os-required = certs.os is required
sim-not-pki = { $path } is not a simulator PKI (line { $line }, column { $column }); remove it to start with new identities
