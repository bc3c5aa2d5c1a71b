//! Lint rules (`talos_config::lint`): for every rule a hit, a miss and the position of the hit
//! (the patch line that set the value), over the lab's fixtures as base configs; and lint over
//! Talos v1.13.9's own good configs (the peer data), every finding listed for review.

use std::path::{Path, PathBuf};

use talos_config::lint::rules;
use talos_config::net::Prefix;
use talos_config::{CheckOptions, Checks, Diagnostic, Error, Mode, PatchSource, Severity, check};

use crate::common;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixture(name: &str) -> PatchSource {
    let bytes = std::fs::read(workspace().join("fixtures").join(name)).unwrap();
    PatchSource::new(name, bytes)
}

/// What `check` with the lint rules found, when the merge worked.
#[derive(Debug)]
struct LintReport {
    findings: Vec<Diagnostic>,
}

impl LintReport {
    fn count(&self, severity: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity() == severity).count()
    }

    fn fails(&self, strict: bool) -> bool {
        self.count(Severity::Error) > 0 || (strict && self.count(Severity::Warning) > 0)
    }
}

struct LintOptions {
    mode: Mode,
    host_ranges: Vec<Prefix>,
}

impl Default for LintOptions {
    fn default() -> LintOptions {
        LintOptions { mode: Mode::Container, host_ranges: Vec::new() }
    }
}

/// `check` with every lint rule; a merge error is `Err`.
fn lint(base: &PatchSource, patches: &[PatchSource], options: &LintOptions) -> Result<LintReport, Error> {
    let options = CheckOptions {
        mode: options.mode,
        host_ranges: options.host_ranges.clone(),
        checks: Checks::Lint,
        ..Default::default()
    };
    let checked = check(base, patches, &options)?;
    match checked.merge_error() {
        Some(e) => Err(e.clone()),
        None => Ok(LintReport { findings: checked.diagnostics().to_vec() }),
    }
}

/// One line per finding: `site: severity[rule] document:path: message (fix: ...)`.
fn render(report: &LintReport) -> String {
    let mut out = String::new();
    for f in &report.findings {
        let site = f.site().map_or_else(|| "-".to_string(), ToString::to_string);
        let path = f.field().map_or_else(|| "-".to_string(), ToString::to_string);
        let doc = f.document().map_or_else(|| "-".to_string(), ToString::to_string);
        out.push_str(&format!("{site}: {}[{}] {doc}:{path}: {}", f.severity().as_str(), f.rule(), f.message()));
        if let Some(s) = f.fix() {
            out.push_str(&format!(" (fix: {s})"));
        }
        out.push('\n');
    }
    out
}

/// A lint case: a base fixture, one patch (named `patch.yaml`), host ranges.
struct Case {
    name: &'static str,
    base: &'static str,
    patch: &'static str,
    host_ranges: &'static [&'static str],
}

const fn case(name: &'static str, base: &'static str, patch: &'static str) -> Case {
    Case { name, base, patch, host_ranges: &[] }
}

fn run(c: &Case) -> LintReport {
    let options = LintOptions {
        mode: Mode::Container,
        host_ranges: c.host_ranges.iter().map(|r| r.parse::<Prefix>().unwrap()).collect(),
    };
    lint(&fixture(c.base), &[PatchSource::new("patch.yaml", c.patch)], &options)
        .unwrap_or_else(|e| panic!("{}: {e}", c.name))
}

const W: &str = "worker.yaml";
const CP: &str = "controlplane.yaml";

/// `<rule>/hit...` cases must raise that rule, `<rule>/miss...` cases must not.
const CASES: &[Case] = &[
    case("talos-validation/hit", W, "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n"),
    case("talos-validation/miss", W, "machine:\n  nodeLabels:\n    lab.talos.dev/team: platform\n"),
    case("talos-warning/hit", CP, "cluster:\n  network:\n    cni:\n      name: custom\n"),
    case("talos-warning/miss", CP, "cluster:\n  network:\n    cni:\n      name: flannel\n"),
    case("kubelet-unknown-flag/hit-typo", W, "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n"),
    case("kubelet-unknown-flag/hit-deprecated", W, "machine:\n  kubelet:\n    extraArgs:\n      max_pods: \"150\"\n"),
    case("kubelet-unknown-flag/hit-denied", W, "machine:\n  kubelet:\n    extraArgs:\n      config: /x\n"),
    case("kubelet-unknown-flag/hit-syntax", W, "machine:\n  kubelet:\n    extraArgs:\n      -v: \"2\"\n"),
    case("kubelet-unknown-flag/hit-removed", W, "machine:\n  kubelet:\n    extraArgs:\n      logtostderr: \"true\"\n"),
    case(
        "kubelet-unknown-flag/hit-config-field",
        W,
        "machine:\n  kubelet:\n    extraArgs:\n      shutdown-grace-period: 30s\n",
    ),
    case(
        "kubelet-unknown-flag/hit-empty",
        W,
        "machine:\n  kubelet:\n    extraArgs:\n      node-ip: \"\"\n      node-labels: []\n",
    ),
    case(
        "kubelet-unknown-flag/hit-other-version",
        W,
        "machine:\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.35.2\n    extraArgs:\n      max-pod: \"1\"\n",
    ),
    case(
        "kubelet-unknown-flag/miss",
        W,
        "machine:\n  kubelet:\n    extraArgs:\n      node-labels: a=b\n      v: \"2\"\n",
    ),
    case(
        "extra-args-denied/hit",
        CP,
        "cluster:\n  apiServer:\n    extraArgs:\n      etcd-servers: https://10.0.0.1:2379\n",
    ),
    case("extra-args-denied/hit-etcd", CP, "cluster:\n  etcd:\n    extraArgs:\n      data-dir: /tmp\n"),
    case("extra-args-denied/miss", CP, "cluster:\n  apiServer:\n    extraArgs:\n      audit-log-maxage: \"30\"\n"),
    case("subnet-overlap/hit-each-other", CP, "cluster:\n  network:\n    podSubnets: [10.96.0.0/16]\n"),
    case(
        "subnet-overlap/hit-node",
        W,
        "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        addresses: [10.244.3.7/24]\n",
    ),
    Case {
        name: "subnet-overlap/hit-host-ranges",
        base: CP,
        patch: "cluster:\n  network:\n    serviceSubnets: [10.100.0.0/16]\n",
        host_ranges: &["10.244.0.0/16", "10.96.0.0/12"],
    },
    Case {
        name: "subnet-overlap/miss",
        base: CP,
        patch: "cluster:\n  network:\n    podSubnets: [10.200.0.0/16]\n    serviceSubnets: [10.201.0.0/16]\n",
        host_ranges: &["10.244.0.0/16", "10.96.0.0/12"],
    },
    case("node-label-restricted/hit", W, "machine:\n  nodeLabels:\n    node-role.kubernetes.io/worker: \"\"\n"),
    case("node-label-restricted/hit-taint", W, "machine:\n  nodeTaints:\n    dedicated: infra:NoSchedule\n"),
    case(
        "node-label-restricted/miss",
        W,
        "machine:\n  nodeLabels:\n    node.kubernetes.io/pool: blue\n    kubernetes.io/arch: amd64\n    example.com/team: a\n",
    ),
    case(
        "node-label-restricted/miss-controlplane",
        CP,
        "machine:\n  nodeLabels:\n    node-role.kubernetes.io/infra: \"\"\n",
    ),
    case(
        "files/hit-create-outside-var",
        W,
        "machine:\n  files:\n    - path: /etc/motd\n      content: hi\n      op: create\n",
    ),
    case("files/hit-no-op", W, "machine:\n  files:\n    - path: /var/motd\n      content: hi\n"),
    case("files/hit-relative", W, "machine:\n  files:\n    - path: var/motd\n      content: hi\n      op: create\n"),
    case(
        "files/miss",
        W,
        "machine:\n  files:\n    - path: /var/motd\n      content: hi\n      op: create\n    - path: /etc/cri/conf.d/20-customization.part\n      content: x\n      op: create\n    - path: /etc/hosts\n      content: x\n      op: append\n",
    ),
    case(
        "endpoint-certsans/hit",
        CP,
        "cluster:\n  apiServer:\n    certSANs:\n      - https://lb.example.com:6443\n      - lb.example.com:6443\n",
    ),
    case("endpoint-certsans/miss", CP, "machine:\n  certSANs:\n    - lb.example.com\n    - 10.0.0.1\n    - \"::1\"\n"),
    case(
        "superseded-setting/hit",
        W,
        "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        mtu: 9000\n  env:\n    HTTP_PROXY: http://a\n---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 1500\n---\napiVersion: v1alpha1\nkind: EnvironmentConfig\nvariables:\n  HTTP_PROXY: http://b\n",
    ),
    case(
        "superseded-setting/miss-other-settings",
        W,
        "machine:\n  network:\n    interfaces:\n      - interface: br0\n        dhcp: true\n---\napiVersion: v1alpha1\nkind: BridgeConfig\nname: br0\nlinks: [eth0]\n",
    ),
    case(
        "superseded-setting/miss",
        W,
        "machine:\n  network:\n    interfaces:\n      - interface: eth1\n        mtu: 9000\n---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 1500\n",
    ),
    case(
        "secret-in-patch/hit",
        CP,
        "cluster:\n  secretboxEncryptionSecret: c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0MTI=\n",
    ),
    case(
        "secret-in-patch/hit-registry-and-pem",
        W,
        "machine:\n  registries:\n    config:\n      ghcr.io:\n        auth:\n          password: hunter2\n  files:\n    - path: /var/k.pem\n      op: create\n      content: |\n        -----BEGIN EC PRIVATE KEY-----\n        MHcC\n        -----END EC PRIVATE KEY-----\n---\napiVersion: v1alpha1\nkind: WireguardConfig\nname: wg0\nprivateKey: abc\npeers:\n  - publicKey: p\n    presharedKey: q\n",
    ),
    case("secret-in-patch/miss", CP, "cluster:\n  clusterName: lab\n"),
    case(
        "kubelet-unknown-flag/hit-help",
        W,
        "machine:\n  kubelet:\n    extraArgs:\n      help: \"true\"\n      config: \"\"\n",
    ),
    case(
        "node-label-restricted/hit-join",
        W,
        "machine:\n  type: join\n  nodeLabels:\n    node-role.kubernetes.io/worker: \"\"\n",
    ),
];

#[test]
fn every_rule_has_a_hit_and_a_miss_with_a_position() {
    for rule in rules() {
        let hits: Vec<&Case> = CASES.iter().filter(|c| c.name.starts_with(&format!("{}/hit", rule.id))).collect();
        let misses: Vec<&Case> = CASES.iter().filter(|c| c.name.starts_with(&format!("{}/miss", rule.id))).collect();
        assert!(!hits.is_empty() && !misses.is_empty(), "{}: a hit and a miss case", rule.id);
        for c in hits {
            let report = run(c);
            let found: Vec<_> = report.findings.iter().filter(|f| f.rule() == rule.id).collect();
            assert!(!found.is_empty(), "{}: no {} finding:\n{}", c.name, rule.id, render(&report));
            assert!(found.iter().all(|f| f.site().is_some()), "{}: a finding without a position", c.name);
            // The patch brought the problem in: at least one finding points into it.
            assert!(
                found.iter().any(|f| f.site().is_some_and(|s| &*s.input == "patch.yaml")),
                "{}: no finding in the patch:\n{}",
                c.name,
                render(&report)
            );
        }
        for c in misses {
            let report = run(c);
            assert!(
                report.findings.iter().all(|f| f.rule() != rule.id),
                "{}: unexpected {}:\n{}",
                c.name,
                rule.id,
                render(&report)
            );
        }
    }
}

#[test]
fn each_case_exactly() {
    let mut out = String::new();
    for c in CASES {
        out.push_str(&format!("## {}\n{}", c.name, render(&run(c))));
    }
    insta::assert_snapshot!("lint_cases", out);
}

#[test]
fn the_lab_patches_and_fixtures() {
    let mut out = String::new();
    let runs: [(&str, &[&str]); 8] = [
        (W, &[]),
        (CP, &[]),
        (W, &["05-labels.yaml"]),
        (W, &["06-canary.yaml"]),
        (W, &["07-bad.yaml"]),
        (W, &["08-kubelet.yaml"]),
        (W, &["08-kubelet.yaml", "08-fix.yaml"]),
        (W, &["05-labels.yaml", "06-canary.yaml", "08-kubelet.yaml", "08-fix.yaml"]),
    ];
    for (base, patches) in runs {
        let sources: Vec<PatchSource> = patches.iter().map(|p| fixture(p)).collect();
        let report = lint(&fixture(base), &sources, &LintOptions::default()).unwrap();
        out.push_str(&format!("## {base} {}\n{}", patches.join(" "), render(&report)));
    }
    insta::assert_snapshot!("lint_lab", out);
}

#[test]
fn the_step8_finding() {
    let report = lint(&fixture(W), &[fixture("08-kubelet.yaml")], &LintOptions::default()).unwrap();
    assert_eq!(
        render(&report),
        "08-kubelet.yaml:4:7: error[kubelet-unknown-flag] v1alpha1:machine.kubelet.extraArgs.max-pod: kubelet v1.36 has no flag `--max-pod`: it exits at start (`unknown flag: --max-pod`), Talos restarts it every 5 s, and the node never becomes Ready (fix: did you mean `max-pods`? Rename the key.)\n"
    );
    assert!(report.fails(false));
    let fixed =
        lint(&fixture(W), &[fixture("08-kubelet.yaml"), fixture("08-fix.yaml")], &LintOptions::default()).unwrap();
    assert_eq!(render(&fixed), "");
}

#[test]
fn a_failing_merge_names_its_patch() {
    let err = lint(&fixture(W), &[fixture("08-fix.yaml")], &LintOptions::default()).unwrap_err();
    assert_eq!(err.input(), Some("08-fix.yaml"));
    assert_eq!(
        err.to_string(),
        "patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path 'machine.kubelet.extraArgs.max-pod': lookup failed"
    );
}

#[test]
fn strict_fails_on_warnings() {
    let c = &CASES.iter().find(|c| c.name == "kubelet-unknown-flag/hit-deprecated").unwrap();
    let report = run(c);
    assert_eq!(report.count(Severity::Error), 0);
    assert_eq!(report.count(Severity::Warning), 1);
    assert!(!report.fails(false));
    assert!(report.fails(true));
}

/// Every good config in Talos's own test data: the stability configs of each version, and the
/// documents of every kind. Talos's tests load them as good; each finding is listed here for
/// review. Only Talos's own validation fires on them (test data with placeholder PEM, options
/// Talos itself refuses together); no lint rule does.
#[test]
fn talos_good_configs() {
    let Some(peer) = common::peer_dir() else { return };
    let mut files = Vec::new();
    collect_yaml(&peer.join("types"), &mut files);
    files.sort();
    let mut out = String::new();
    let mut checked = 0;
    for file in files {
        let rel = file.strip_prefix(&peer).unwrap().display().to_string();
        // The legacy document: the full configs of every version (not the stability patch or
        // the secrets bundle, and not the merge tests' fragments). Other kinds: every document.
        let name = file.file_name().unwrap().to_string_lossy();
        let good = if rel.starts_with("types/v1alpha1/") {
            rel.contains("/stability/v") && (name.starts_with("base-") || name.starts_with("overrides-"))
        } else {
            true
        };
        if !good {
            continue;
        }
        let base = PatchSource::new(rel.clone(), std::fs::read(&file).unwrap());
        // Cloud: the mode that asks nothing of the machine (Talos's tests validate none of these).
        match lint(&base, &[], &LintOptions { mode: Mode::Cloud, host_ranges: Vec::new() }) {
            Ok(report) => {
                checked += 1;
                if !report.findings.is_empty() {
                    out.push_str(&format!("## {rel}\n{}", render(&report)));
                }
            }
            Err(e) => out.push_str(&format!("## {rel}\nnot loaded: {e}\n")),
        }
    }
    out.insert_str(0, &format!("{checked} configs linted; only those with findings are listed\n"));
    insta::assert_snapshot!("lint_talos_good_configs", out);
}

fn collect_yaml(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_yaml(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml") {
            out.push(path);
        }
    }
}

#[test]
fn every_rule_is_documented() {
    let docs = std::fs::read_to_string(workspace().join("docs/lint.md")).unwrap();
    let readme = std::fs::read_to_string(workspace().join("README.md")).unwrap();
    for rule in rules() {
        assert!(docs.contains(&format!("`{}`", rule.id)), "docs/lint.md lacks {}", rule.id);
        assert!(readme.contains(&format!("| `{}` |", rule.id)), "README.md's rule table lacks {}", rule.id);
        for text in [rule.summary, rule.why, rule.example, rule.fix] {
            assert!(!text.is_empty() && !text.contains("TODO"), "{}", rule.id);
        }
    }
}

#[test]
fn a_secret_a_later_patch_removes_is_still_reported() {
    let set = PatchSource::new("s1.yaml", "cluster:\n  secretboxEncryptionSecret: c2VjcmV0\n");
    let delete = PatchSource::new("s2.yaml", "cluster:\n  secretboxEncryptionSecret:\n    $patch: delete\n");
    let report = lint(&fixture(CP), &[set, delete], &LintOptions::default()).unwrap();
    assert_eq!(
        render(&report),
        "s1.yaml:2:3: warning[secret-in-patch] v1alpha1:cluster.secretboxEncryptionSecret: the patch s1.yaml sets `cluster.secretboxEncryptionSecret`, a secret: patches are kept in git (fix: keep secrets in the generated base config or a secret store, not in a patch)\n"
    );
    assert!(!render(&report).contains("c2VjcmV0"));
}

/// A deprecated config-file flag names the field it sets, which is not always its name in camel
/// case (issue 26; the bindings are kubelet's `options.go`).
#[test]
fn deprecated_flags_name_their_config_field() {
    let cases = [
        ("rotate-server-certificates", "set `machine.kubelet.extraConfig.serverTLSBootstrap` instead"),
        ("pod-max-pids", "set `machine.kubelet.extraConfig.podPidsLimit` instead"),
        ("event-qps", "set `machine.kubelet.extraConfig.eventRecordQPS` instead"),
        ("registry-qps", "set `machine.kubelet.extraConfig.registryPullQPS` instead"),
        ("cgroups-per-qos", "set `machine.kubelet.extraConfig.cgroupsPerQOS` instead"),
        ("max-pods", "set `machine.kubelet.extraConfig.maxPods` instead"),
        (
            "anonymous-auth",
            "Talos sets `authentication` of the kubelet's config file itself and refuses it in `extraConfig`: remove the flag",
        ),
        (
            "resolv-conf",
            "Talos sets `resolvConf` of the kubelet's config file itself and refuses it in `extraConfig`: remove the flag",
        ),
    ];
    for (flag, fix) in cases {
        let patch =
            PatchSource::new("patch.yaml", format!("machine:\n  kubelet:\n    extraArgs:\n      {flag}: \"1\"\n"));
        let report = lint(&fixture(W), &[patch], &LintOptions::default()).unwrap();
        let found: Vec<_> = report.findings.iter().filter(|f| f.rule() == "kubelet-unknown-flag").collect();
        assert_eq!(found.len(), 1, "{flag}: {}", render(&report));
        assert_eq!(found[0].fix(), Some(fix), "{flag}");
        assert_eq!(
            found[0].message(),
            format!(
                "kubelet flag `--{flag}` is deprecated: This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information."
            ),
            "{flag}"
        );
    }
}

/// From v1.14 the rules read a Kubernetes setting where Talos does: its dedicated document when
/// the config has one (KubeletConfig, KubeAPIServerConfig, KubeNodeConfig, ...), and point at it.
#[test]
fn v1_14_rules_read_the_kubernetes_documents() {
    let patch = "machine:\n  kubelet:\n    $patch: delete\n  nodeLabels:\n    $patch: delete\n---\n\
                 apiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.36.3\nconfig: {}\n\
                 extraArgs:\n  max-pod: \"150\"\n---\n\
                 apiVersion: v1alpha1\nkind: KubeNodeConfig\nnodeIP: {}\nlabels:\n  node-role.kubernetes.io/db: \"\"\n\
                 taints:\n  dedicated: db:NoSchedule\n---\n\
                 apiVersion: v1alpha1\nkind: KubeAPIServerConfig\nimage: registry.k8s.io/kube-apiserver:v1.36.3\n\
                 extraArgs:\n  etcd-servers: https://1.2.3.4:2379\ncertExtraSANs:\n  - https://api.example.com\n";
    let options = CheckOptions {
        mode: Mode::Metal,
        checks: Checks::Lint,
        release: talos_config::Release::V1_14_0_RC1,
        ..Default::default()
    };
    let checked = check(&fixture("worker.yaml"), &[PatchSource::new("patch.yaml", patch)], &options).unwrap();
    assert!(checked.merge_error().is_none());
    let lint: Vec<Diagnostic> =
        checked.diagnostics().iter().filter(|d| !d.rule().starts_with("talos-")).cloned().collect();
    insta::assert_snapshot!(render(&LintReport { findings: lint }));
}

/// From v1.14 the subnets are read where Talos reads them: a KubeNetworkConfig document's
/// `podSubnets` (`gen config` v1.14 writes one), reported at its line.
#[test]
fn subnet_overlap_reads_a_kube_network_config() {
    let path = workspace().join("talos-config/tests/engine/data/upgrade/gen/contract-v1.14-worker.yaml");
    let base = PatchSource::new("worker.yaml", std::fs::read(path).unwrap());
    let options = CheckOptions {
        checks: Checks::Lint,
        host_ranges: vec!["10.244.0.0/16".parse().unwrap()],
        release: talos_config::Release::V1_14_0_RC1,
        ..CheckOptions::default()
    };
    let checked = check(&base, &[], &options).unwrap();
    let found: Vec<String> = checked
        .diagnostics()
        .iter()
        .filter(|d| d.rule() == "subnet-overlap")
        .map(|d| format!("{d} ({}: {})", d.document().unwrap(), d.field().unwrap()))
        .collect();
    assert_eq!(
        found,
        [
            "worker.yaml:78:7: error[subnet-overlap]: 10.244.0.0/16 overlaps the host range 10.244.0.0/16 (KubeNetworkConfig: podSubnets[0])"
        ]
    );
}
