//! The configloader decoder cases of upstream `decoder_test.go` / `delete_test.go` (docs/merge.md
//! §11.7) that do not need test-only kinds, plus the document-identification rules of §4.2.

use talos_config::Config;
use talos_config::testing::extract_deletes;
use talos_yaml::emit_v4::emit_v4;
use talos_yaml::parse::parse_documents;

fn load_err(text: &[u8]) -> String {
    match Config::from_bytes(text) {
        Ok(_) => "OK".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn missing_kind() {
    assert_eq!(
        load_err(b"---\napiVersion: v1alpha2\ntest: true\n"),
        "error decoding document v1alpha2/v1alpha1/ (line 2): missing kind"
    );
    assert_eq!(
        load_err(b"---\nkind:\napiVersion: v1alpha2\ntest: true\n"),
        "error decoding document v1alpha2/v1alpha1/ (line 2): missing kind"
    );
}

#[test]
fn tab_instead_of_spaces() {
    assert_eq!(
        load_err(b"---\nkind: mock\napiVersion: v1alpha1\nspec:\n\ttest: true\n"),
        "decode error: yaml: while scanning for the next token at line 5: found character that cannot start any token"
    );
}

#[test]
fn extra_field() {
    assert_eq!(
        load_err(b"---\napiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://x\nextra: fail\n"),
        "error decoding document v1alpha1/SideroLinkConfig/ (line 2): unknown keys found during decoding:\nextra: fail\n"
    );
}

#[test]
fn internal_error_invalid_utf8() {
    assert_eq!(load_err(b":   \xea"), "decode error: yaml: offset 4: incomplete UTF-8 octet sequence");
}

#[test]
fn misspelled_and_missing_api_version() {
    assert_eq!(
        load_err(b"---\napiversion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\n"),
        "error decoding document /ExtensionServiceConfig/foo (line 2): missing apiVersion"
    );
    assert_eq!(
        load_err(b"---\nkind: mock\ntest: true\n"),
        "error decoding document /mock/ (line 2): missing apiVersion"
    );
}

#[test]
fn unregistered_kind_and_version() {
    assert_eq!(
        load_err(b"apiVersion: v1alpha1\nkind: mock\n"),
        "error decoding document v1alpha1/mock/ (line 1): \"mock\" \"v1alpha1\": not registered"
    );
    assert_eq!(
        load_err(b"apiVersion: v1alpha2\nkind: SideroLinkConfig\n"),
        "error decoding document v1alpha2/SideroLinkConfig/ (line 1): \"SideroLinkConfig\" \"v1alpha2\": not registered"
    );
}

#[test]
fn empty_documents_are_skipped_and_nothing_is_not_found() {
    assert_eq!(load_err(b"---\nmachine:\n  type: worker\n---\n---\n"), "OK");
    assert_eq!(load_err(b""), "config not found");
    assert_eq!(load_err(b"# only a comment\n"), "config not found");
    assert_eq!(load_err(b"---\n~\n---\nnull\n"), "config not found");
}

#[test]
fn duplicate_and_non_mapping_documents() {
    assert_eq!(
        load_err(b"machine:\n  type: controlplane\n---\nmachine:\n  type: worker\n"),
        "duplicate document /v1alpha1/ is not allowed (line 4)"
    );
    assert_eq!(load_err(b"- a\n- b\n"), "expected a YAML document at line 1");
    assert_eq!(
        load_err(b"apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nbogus: 1\n"),
        "duplicate document v1alpha1/HostnameConfig/ is not allowed (line 5)"
    );
}

#[test]
fn version_only_document_has_no_kind() {
    assert_eq!(load_err(b"version: v1alpha1\n"), "error decoding document /v1alpha1/ (line 1): missing kind");
}

#[test]
fn legacy_document_type_errors_have_a_double_space() {
    assert_eq!(
        load_err(b"machine:\n  type: worker\n  certSANs: foo\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 3: cannot construct !!str `foo` into []string"
    );
}

#[test]
fn floats_into_integers_only_when_nothing_is_lost() {
    let mtu = |value: &str| {
        format!(
            "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        mtu: {value}\n"
        )
    };
    for value in [".5", "1.5", "-0.25"] {
        assert_eq!(
            load_err(mtu(value).as_bytes()),
            format!(
                "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 7: cannot construct !!float `{value}` into int"
            )
        );
    }
    for (value, printed) in [("1e3", "1000"), ("1500.0", "1500")] {
        let out = Config::from_bytes(mtu(value).as_bytes()).unwrap().encode();
        assert!(out.contains(&format!("\n              mtu: {printed}\n")), "{out}");
    }
}

#[test]
fn unknown_keys_summary_prints_keys_as_go_strings() {
    // Upstream collects the summary in a Go map: keys lose their quotes unless a plain key would
    // read as something else (`<<` is the merge key); values keep their own style.
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  discovery:\n    \"$patch\": replace\n    '<<': \"x\"\n"),
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\ncluster:\n    discovery:\n        $patch: replace\n        \"<<\": \"x\"\n"
    );
}

#[test]
fn explicit_tags_resolve_the_text_and_must_match_it() {
    // `!!int '7'` is the integer 7, quotes or not.
    let files = "version: v1alpha1\nmachine:\n  type: worker\n  files:\n    - content: x\n      permissions: !!int '7'\n      path: /a\n      op: create\n";
    assert!(Config::from_bytes(files.as_bytes()).unwrap().encode().contains("\n          permissions: 0o7\n"));
    // A tagged text that resolves to another type stops decoding, before any type error.
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: !!bool 'yes'\n  certSANs: foo\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: cannot construct !!str `yes` as a !!bool"
    );
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    a: !!int 2001-01-01\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: cannot construct !!str `2001-01-01` as a !!int"
    );
    // An integer passes as a float.
    let ok =
        "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    auditPolicy:\n      x: !!float 3\n";
    assert!(Config::from_bytes(ok.as_bytes()).is_ok());
}

#[test]
fn a_bom_after_the_start_is_part_of_the_key() {
    // go-yaml escapes every character of a string that starts with a BOM.
    assert_eq!(
        load_err(b"cluster: {}\n\xef\xbb\xbfmachine:\n  type: worker\n"),
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\n\"\\uFEFF\\x6D\\x61\\x63\\x68\\x69\\x6E\\x65\":\n    type: worker\n"
    );
}

#[test]
fn resolver_config_has_no_host_dns_in_v1_13_9() {
    assert_eq!(
        load_err(b"apiVersion: v1alpha1\nkind: ResolverConfig\nhostDNS:\n  enabled: true\n"),
        "error decoding document v1alpha1/ResolverConfig/ (line 1): unknown keys found during decoding:\nhostDNS:\n    enabled: true\n"
    );
}

#[test]
fn nulls_that_the_go_type_cannot_hold_are_dropped() {
    // A `null` list element of a struct type, and a `null` key of a string map, are skipped by
    // go-yaml; a `null` element of a list of pointers or maps stays.
    let text = "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraMounts: [null]\n  nodeLabels: {null: z, a: b}\n  certSANs: [x, null]\n";
    assert_eq!(
        Config::from_bytes(text.as_bytes()).unwrap().encode(),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs:\n        - x\n    kubelet: {}\n    nodeLabels:\n        a: b\ncluster: null\n"
    );
}

#[test]
fn an_earlier_documents_error_wins_over_a_later_syntax_error() {
    // Upstream decodes each document before it reads the next one.
    assert_eq!(
        load_err(b"machine:\n  type: worker\n  foo: bar\n---\n[unclosed\n"),
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n"
    );
    assert_eq!(
        load_err(b"machine:\n  type: worker\n---\n[unclosed\n"),
        "decode error: yaml: while parsing a flow sequence at line 3: line 4: did not find expected ',' or ']'"
    );
}

#[test]
fn new_style_field_sets_are_talos_v1_13_9s() {
    // Removed: keys of newer Talos versions.
    assert_eq!(
        load_err(
            b"apiVersion: v1alpha1\nkind: ResolverConfig\nnameservers:\n  - address: 1.1.1.1\n    protocol: DoT\n"
        ),
        "error decoding document v1alpha1/ResolverConfig/ (line 1): unknown keys found during decoding:\nnameservers:\n    - protocol: DoT\n"
    );
    // Added: keys v1.13.9 has.
    for text in [
        "apiVersion: v1alpha1\nkind: OOMConfig\ncgroupRankingExpression: memory_max\nstrictCgroupClassOrdering: true\n",
        "apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://siderolink.api/join?jointoken=secret\nuniqueToken: abc\n",
    ] {
        let out = Config::from_bytes(text.as_bytes()).unwrap().encode();
        assert_eq!(out, text);
    }
}

#[test]
fn construct_errors_name_the_fields_go_type() {
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: worker\n  files:\n    - content: x\n      permissions: 0o666x\n      path: /a\n      op: create\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 6: cannot construct !!str `0o666x` into v1alpha1.FileMode"
    );
}

#[test]
fn duplicate_mapping_keys_are_construct_errors() {
    assert_eq!(
        load_err(b"machine:\n  type: worker\n  type: controlplane\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 3: mapping key \"type\" already defined at line 2"
    );
}

#[test]
fn a_value_named_kind_is_read_as_the_key() {
    // Upstream scans keys and values alike: the value `kind` makes the next node the kind.
    assert_eq!(
        load_err(b"apiVersion: v1alpha1\nname: kind\nSideroLinkConfig: x\n"),
        "error decoding document v1alpha1/v1alpha1/kind (line 1): unknown keys found during decoding:\nSideroLinkConfig: x\nname: kind\n"
    );
    assert_eq!(
        load_err(b"apiVersion: v1alpha1\nfoo: kind\n"),
        "error decoding document v1alpha1/v1alpha1/ (line 1): recovered: runtime error: index out of range [4] with length 4"
    );
}

/// `delete_test.go` `TestExtractDeletes`: the selectors' string forms and the YAML left over.
#[test]
fn extract_deletes_selectors_and_remainder() {
    let text = "apiVersion: v1alpha1\nkind: SideroLinkConfig\n$patch: delete\n---\n\
apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n  - content: hello\n    $patch: delete\n  - content: hello2\n    mountPath: /etc/foo2\n---\n\
version: v1alpha1\nmachine:\n  hostname:\n    $patch: delete\n  network:\n    - interface: eth0\n      $patch: delete\n    - interface: eth1\n      addresses: [10.3.5.5/32]\n    - interface: eth0\n      dhcp6: true\n";
    let mut selectors = Vec::new();
    let mut remaining = Vec::new();
    for (i, root) in parse_documents(text.as_bytes()).unwrap().into_iter().enumerate() {
        let (kept, found) = extract_deletes(root, i).unwrap();
        selectors.extend(found.iter().map(ToString::to_string));
        remaining.extend(kept.map(|n| emit_v4(&n)));
    }
    assert_eq!(
        selectors,
        [
            "{apiVersion:v1alpha1, kind:SideroLinkConfig, idx:0}",
            "{path:configFiles.[0], apiVersion:v1alpha1, kind:ExtensionServiceConfig, key:content, value:hello, idx:1, name:foo}",
            "{path:machine.hostname, kind:v1alpha1, idx:2}",
            "{path:machine.network.[0], kind:v1alpha1, key:interface, value:eth0, idx:2}",
        ]
    );
    assert_eq!(
        remaining.join("---\n"),
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n    - content: hello2\n      mountPath: /etc/foo2\n---\n\
version: v1alpha1\nmachine:\n    network:\n        - interface: eth1\n          addresses: [10.3.5.5/32]\n        - interface: eth0\n          dhcp6: true\n"
    );
}

/// Talos's text names the document's line; the error's location points at the first offending
/// node (the unknown key, or the value of the wrong type).
#[test]
fn locations_point_at_the_offending_node() {
    let loc = |text: &[u8]| {
        let e = Config::from_bytes(text).unwrap_err();
        (e.line(), e.column())
    };
    assert_eq!(loc(b"machine:\n  type: worker\n  network:\n    bogus: 1\n    alsoBad: 2\n"), (Some(4), Some(5)));
    assert_eq!(loc(b"machine:\n  type: worker\n  certSANs: foo\n"), (Some(3), Some(13)));
    assert_eq!(loc(b"---\napiVersion: v1alpha1\nkind: mock\n"), (Some(2), Some(1)));
    let patch_err =
        talos_config::load_patches([talos_config::PatchSource::new("p.yaml", "machine:\n  foo: bar\n")]).unwrap_err();
    assert_eq!((patch_err.input(), patch_err.line(), patch_err.column()), (Some("p.yaml"), Some(2), Some(3)));
}

/// U+2028 is a line break to YAML (as NEL and U+2029 are): a quoted flow-mapping key holding
/// one spans two lines, so it is no simple key and the parser stops, as libyaml/go-yaml do
/// (derived from their simple-key rule, not observed on a Talos binary).
#[test]
fn line_separator_in_a_quoted_key_is_a_line_break() {
    let err = talos_config::load_patches([talos_config::PatchSource::new(
        "p",
        "{\"machine\":{\"nodeLabels\":{\"\u{2028}\":\"a\"}}}",
    )])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "decode error: yaml: while parsing a flow mapping at <unknown position>: line 1, column 2: did not find expected ',' or '}'"
    );
}

/// The unknown-keys summary is go-yaml's re-encoding of the leftover nodes: tags written in the
/// input stay (go-yaml's `TaggedStyle`), anchors stay, an alias stays an alias; keys are Go
/// strings (`"n"` is quoted: a YAML 1.1 boolean).
#[test]
fn unknown_keys_summary_keeps_tags_anchors_and_aliases() {
    let text = "version: v1alpha1\nmachine:\n  foo: &a\n    x: 1\n  bar:\n    - &b {y: 2}\n    - *b\n  baz: !!seq [1]\n  \"qux\": ! z\n  n: !!str 1\n  q: !!int \"2\"\n";
    insta::assert_snapshot!(load_err(text.as_bytes()), @r#"
    error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:
    machine:
        bar:
            - &b {y: 2}
            - *b
        baz: !!seq [1]
        foo: &a
            x: 1
        "n": !!str 1
        q: !!int "2"
        qux: z
    "#);
}

/// The unknown-keys summary keeps the comments go-yaml attaches to the leftover values and to
/// everything inside them (head, line and foot comments, a key's foot moving to the next key);
/// the comments of an unknown key itself are lost, as the summary's keys are new Go strings.
#[test]
fn unknown_keys_summary_keeps_the_comments_of_leftover_values() {
    let text = "version: v1alpha1
machine:
  type: worker
  # lost: heads the unknown key
  foo: # lost: the unknown key's line comment
    # heads bar
    bar: 1 # after 1
    # foot of bar

    # heads baz
    baz:
      - a # after a
      # foot of a
      - b
  seq: [x, y] # after the flow sequence
  text: |  # after the block header
    line
  alias: &anchor z # after z
  again: *anchor # after the alias
";
    insta::assert_snapshot!(load_err(text.as_bytes()), @r"
    error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:
    machine:
        again: *anchor # after the alias
        alias: &anchor z # after z
        foo:
            # heads bar
            bar: 1 # after 1
            # foot of bar

            # heads baz
            baz:
                - a # after a
                # foot of a
                - b
        seq: [x, y] # after the flow sequence
        text: | # after the block header
            line
    ");
}

/// go-yaml never decodes the value of a key the Go struct does not have, so a wrong explicit tag
/// there is not an error: the unknown key is (Talos checks unknown keys after decoding). Keys
/// themselves are decoded, and a wrong tag on a known field still stops decoding first.
#[test]
fn a_wrong_tag_under_an_unknown_key_is_an_unknown_key() {
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: worker\n  foo: !!int 'x'\n"),
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: !!int 'x'\n"
    );
    assert_eq!(
        load_err(b"version: v1alpha1\nmachine:\n  type: !!bool worker\n  foo: !!int 'x'\n"),
        "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: cannot construct !!str `worker` as a !!bool"
    );
}

/// Block value texts as Talos v1.13.9 reads them (issue 13's second check): the `FilesystemType`
/// names of its enumer (`swapi`, no `nfs`), the percentage form chosen by any `%`, Go's
/// `ParseFloat` for percentages (NaN passes the range check, `%v` prints the value), and
/// go-yaml rc.4's integer zero for a `time.Duration`.
#[test]
fn block_texts_and_zero_durations_read_as_talos_reads_them() {
    let user = |body: &str| {
        load_err(
            format!(
                "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: d\nprovisioning:\n  diskSelector:\n    match: system_disk\n{body}"
            )
            .as_bytes(),
        )
    };
    let ok = "  minSize: 1GiB\n";
    insta::assert_snapshot!(
        [
            user(&format!("{ok}filesystem:\n  type: swap\n")),
            user(&format!("{ok}filesystem:\n  type: nfs\n")),
            user(&format!("{ok}filesystem:\n  type: swapi\n")),
            user("  maxSize: 5%GB\n"),
            user("  maxSize: NaN%\n"),
            user("  maxSize: inf%\n"),
            user("  maxSize: 1e400%\n"),
            user("  maxSize: 1e21%\n"),
            user("  maxSize: 0x1p4%\n"),
            user("  minSize: 16EiB\n"),
            user("  minSize: -16EiB\n"),
            load_err(b"apiVersion: v1alpha1\nkind: WatchdogTimerConfig\ndevice: /dev/watchdog0\ntimeout: 0\n"),
            load_err(b"apiVersion: v1alpha1\nkind: WatchdogTimerConfig\ndevice: /dev/watchdog0\ntimeout: 0x0\n"),
            load_err(b"apiVersion: v1alpha1\nkind: WatchdogTimerConfig\ndevice: /dev/watchdog0\ntimeout: 5\n"),
        ]
        .join("\n"),
        @r#"
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 9: swap does not belong to FilesystemType values
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 9: nfs does not belong to FilesystemType values
    OK
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: percentage must end with '%'
    OK
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: percentage must be between 0 and 100, got +Inf
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: invalid percentage value: strconv.ParseFloat: parsing "1e400": value out of range
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: percentage must be between 0 and 100, got 1e+21
    OK
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: too large: 16EiB
    error decoding document v1alpha1/UserVolumeConfig/d (line 1): error decoding UserVolumeConfig to *block.UserVolumeConfigV1Alpha1: yaml: construct errors:
      line 7: too large: 16EiB
    OK
    OK
    error decoding document v1alpha1/WatchdogTimerConfig/ (line 1): error decoding WatchdogTimerConfig to *runtime.WatchdogTimerV1Alpha1: yaml: construct errors:
      line 4: cannot construct !!int `5` into time.Duration
    "#
    );
}

/// A tagged scalar is checked when go-yaml decodes it: not inside a value decoded into a scalar
/// type, nor inside a value a custom unmarshaler refuses, where the other errors are reported
/// instead; a decoded mismatch still ends decoding alone (issue 26, recorded from Talos v1.13.9).
#[test]
fn tagged_scalars_are_checked_where_they_are_decoded() {
    let head = "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: ";
    let cases = [
        (
            "machine: {type: worker, features: {rbac: {x: !!bool yes}}}",
            "construct errors:\n  line 2: cannot construct !!map into bool",
        ),
        (
            "machine: {type: worker, features: {rbac: {x: !!bool yes}}, kubelet: {extraArgs: {a: {b: 1}}}}",
            "construct errors:\n  line 2: cannot construct !!map into bool\n  line 2: arg value must be a string or list of strings",
        ),
        (
            "machine: {type: worker, nodeLabels: {a: [!!bool yes]}}",
            "construct errors:\n  line 2: cannot construct !!seq into string",
        ),
        (
            "machine: {type: worker, kubelet: {extraArgs: {a: !!bool yes}}}",
            "construct errors:\n  line 2: arg value must be a string or list of strings",
        ),
        (
            "machine: {type: worker, kubelet: {extraArgs: {a: [!!bool yes]}}}",
            "construct errors:\n  line 2: arg value must be a string or list of strings",
        ),
        (
            "machine: {type: worker, nodeLabels: [1], features: {rbac: !!bool yes}}",
            "cannot construct !!str `yes` as a !!bool",
        ),
        ("machine: {type: worker, sysctls: {a: !!int x}}", "cannot construct !!str `x` as a !!int"),
    ];
    for (body, error) in cases {
        let text = format!("version: v1alpha1\n{body}\n");
        assert_eq!(Config::from_bytes(text.as_bytes()).unwrap_err().to_string(), format!("{head}{error}"), "{body}");
    }
    // A tag its text matches is no error, in an argument too.
    let ok = "version: v1alpha1\nmachine: {type: worker, kubelet: {extraArgs: {a: !!bool true, b: !!str yes}}}\n";
    assert!(Config::from_bytes(ok.as_bytes()).is_ok());
}
