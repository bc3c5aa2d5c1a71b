//! COSI as talosctl uses it, at the wire (the generated tonic clients): `talosctl get <alias>`
//! lists `meta/ResourceDefinitions.meta.cosi.dev` and matches the alias against each
//! definition's id and `allAliases` (case-insensitively), then reads the type in its default
//! namespace; and apid/machined's authorization for each role (Talos v1.13.9's rules).

use std::time::Duration;

use prost::Message;
use talos_client::proto::cosi::resource as cosi;
use talos_client::proto::cosi::resource::meta::ResourceDefinitionSpec;
use talos_client::proto::machine;
use talos_client::proto::machine::machine_service_client::MachineServiceClient;
use talos_sim::{CertKey, ClientUsage, Sim, Validity};
use tonic::Request;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

const WORKER: &str = "10.5.0.3";

async fn channel(sim: &Sim, identity: &CertKey) -> Channel {
    let tls = ClientTlsConfig::new()
        .ca_certificate(Certificate::from_pem(sim.pki().ca_pem()))
        .identity(Identity::from_pem(&identity.cert_pem, &identity.key_pem));
    Channel::from_shared(format!("https://{}", sim.controlplane.endpoint))
        .expect("uri")
        .tls_config(tls)
        .expect("tls")
        .timeout(Duration::from_secs(5))
        .connect()
        .await
        .expect("connect")
}

fn to_worker<T>(msg: T, roles: &[&str]) -> Request<T> {
    let mut r = Request::new(msg);
    r.metadata_mut().insert("node", WORKER.parse().expect("ascii"));
    for role in roles {
        r.metadata_mut().append("talos-role", role.parse().expect("ascii"));
    }
    r
}

fn list(namespace: &str, r#type: &str) -> cosi::ListRequest {
    cosi::ListRequest { namespace: namespace.into(), r#type: r#type.into(), options: None }
}

async fn list_all(state: &mut cosi::state_client::StateClient<Channel>, req: cosi::ListRequest) -> Vec<cosi::Resource> {
    let mut stream = state.list(to_worker(req, &[])).await.expect("list").into_inner();
    let mut out = Vec::new();
    while let Some(item) = stream.message().await.expect("item") {
        out.push(item.resource.expect("resource"));
    }
    out
}

fn id(r: &cosi::Resource) -> String {
    r.metadata.as_ref().expect("metadata").id.clone()
}

fn yaml(r: &cosi::Resource) -> String {
    r.spec.as_ref().expect("spec").yaml_spec.clone()
}

/// talosctl's `ResolveResourceKind`: the one definition whose id or any of `allAliases` equals
/// `alias`, ignoring case.
fn resolve<'a>(definitions: &'a [ResourceDefinitionSpec], alias: &str) -> Vec<&'a ResourceDefinitionSpec> {
    definitions
        .iter()
        .filter(|d| {
            d.resource_type.eq_ignore_ascii_case(alias) || d.all_aliases.iter().any(|a| a.eq_ignore_ascii_case(alias))
        })
        .collect()
}

#[tokio::test]
async fn every_alias_resolves_to_one_served_type() {
    let sim = Sim::start().await.expect("sim");
    let mut state = cosi::state_client::StateClient::new(channel(&sim, sim.admin()).await);
    let items = list_all(&mut state, list("meta", "ResourceDefinitions.meta.cosi.dev")).await;
    let ids: Vec<String> = items.iter().map(id).collect();
    assert_eq!(
        ids,
        [
            "hostnamestatuses.net.talos.dev",
            "machineconfigs.config.talos.dev",
            "members.cluster.talos.dev",
            "namespaces.meta.cosi.dev",
            "nodenames.kubernetes.talos.dev",
            "resourcedefinitions.meta.cosi.dev",
            "services.v1alpha1.talos.dev"
        ]
    );
    let by_id = |wanted: &str| items.iter().find(|r| id(r) == wanted).expect("definition");
    let md = items[0].metadata.clone().expect("metadata");
    assert_eq!(
        (md.namespace.as_str(), md.version.as_str(), md.owner.as_str(), md.phase.as_str()),
        ("meta", "1", "meta", "running")
    );
    let definitions: Vec<ResourceDefinitionSpec> = items
        .iter()
        .map(|r| ResourceDefinitionSpec::decode(r.spec.as_ref().expect("spec").proto_spec.as_slice()).expect("decodes"))
        .collect();
    for d in &definitions {
        for alias in d.all_aliases.iter().chain([&d.resource_type]) {
            let found = resolve(&definitions, alias);
            assert_eq!(found.len(), 1, "{alias} is ambiguous or unknown");
            assert_eq!(found[0].resource_type, d.resource_type);
            // Read as talosctl does: the type in its default namespace (the worker has resources
            // of every type).
            let items = list_all(&mut state, list(&d.default_namespace, &d.resource_type)).await;
            assert!(!items.is_empty(), "{alias}");
        }
    }
    insta::assert_snapshot!(yaml(by_id("machineconfigs.config.talos.dev")), @r"
    type: MachineConfigs.config.talos.dev
    displayType: MachineConfig
    defaultNamespace: config
    aliases:
        - machineconfig
        - mc
        - mcs
    allAliases:
        - machineconfigs
        - machineconfigs.config
        - machineconfigs.config.talos
        - machineconfig
        - mc
        - mcs
    printColumns: []
    sensitivity: sensitive
    ");
    insta::assert_snapshot!(yaml(by_id("members.cluster.talos.dev")), @r"
        type: Members.cluster.talos.dev
        displayType: Member
        defaultNamespace: cluster
        aliases:
            - member
        allAliases:
            - members
            - members.cluster
            - members.cluster.talos
            - member
        printColumns:
            - name: Hostname
              jsonPath: '{.hostname}'
            - name: Machine Type
              jsonPath: '{.machineType}'
            - name: OS
              jsonPath: '{.operatingSystem}'
            - name: Addresses
              jsonPath: '{.addresses}'
        ");
    // The node's singletons, as `talosctl get hostname` and `talosctl get nodename` read them.
    let hostname = list_all(&mut state, list("network", "HostnameStatuses.net.talos.dev")).await;
    assert_eq!(yaml(&hostname[0]), "hostname: talos-default-worker-1\ndomainname: \"\"\n");
    let nodename = list_all(&mut state, list("k8s", "Nodenames.kubernetes.talos.dev")).await;
    assert_eq!(
        yaml(&nodename[0]),
        "nodename: talos-default-worker-1\nhostnameVersion: \"1\"\nskipNodeRegistration: false\n"
    );
    assert_eq!((id(&hostname[0]), id(&nodename[0])), ("hostname".to_string(), "nodename".to_string()));
    let namespaces = list_all(&mut state, list("meta", "Namespaces.meta.cosi.dev")).await;
    assert_eq!(namespaces.len(), 17);
    assert_eq!(id(&namespaces[10]), "meta");
    assert_eq!(
        yaml(&namespaces[10]),
        "description: Metadata namespace which contains resource and namespace definitions.\n"
    );
}

/// What each role gets, per call, through the control plane to the worker: `ok`, or the code and
/// Talos's text.
async fn outcomes(sim: &Sim, identity: &CertKey, claimed: &[&str]) -> String {
    let channel = channel(sim, identity).await;
    let mut machine = MachineServiceClient::new(channel.clone());
    let mut state = cosi::state_client::StateClient::new(channel);
    let verdict = |r: Result<(), tonic::Status>| match r {
        Ok(()) => "ok".to_string(),
        Err(s) => format!("{:?}: {}", s.code(), s.message()),
    };
    let mut out = Vec::new();
    let version = machine.version(to_worker((), claimed)).await.map(|_| ());
    out.push(("Version".to_string(), verdict(version)));
    let services = machine.service_list(to_worker((), claimed)).await.map(|_| ());
    out.push(("ServiceList".to_string(), verdict(services)));
    let kubeconfig = async {
        let mut r = Request::new(());
        for role in claimed {
            r.metadata_mut().append("talos-role", role.parse().expect("ascii"));
        }
        let mut stream = machine.kubeconfig(r).await?.into_inner();
        while stream.message().await?.is_some() {}
        Ok(())
    };
    out.push(("Kubeconfig (control plane)".to_string(), verdict(kubeconfig.await)));
    let apply = machine::ApplyConfigurationRequest { dry_run: true, ..Default::default() };
    let apply = machine.apply_configuration(to_worker(apply, claimed)).await.map(|_| ());
    out.push(("ApplyConfiguration".to_string(), verdict(apply)));
    let logs = async {
        let req = machine::LogsRequest {
            namespace: "system".into(),
            id: "machined".into(),
            driver: 0,
            follow: false,
            tail_lines: 1,
        };
        let mut stream = machine.logs(to_worker(req, claimed)).await?.into_inner();
        while stream.message().await?.is_some() {}
        Ok(())
    };
    out.push(("Logs machined".to_string(), verdict(logs.await)));
    // Every served type, in its default namespace, then the two refusals of the access filter.
    let mut reads: Vec<(String, String, String)> = talos_sim::catalog::DEFINITIONS
        .iter()
        .map(|d| (format!("List {}", d.r#type), d.default_namespace.to_string(), d.r#type.to_string()))
        .collect();
    reads.push(("List Nope.talos.dev".into(), "config".into(), "Nope.talos.dev".into()));
    reads.push(("List Members in nope".into(), "nope".into(), "Members.cluster.talos.dev".into()));
    for (what, ns, t) in reads {
        let r = async {
            let mut stream = state.list(to_worker(list(&ns, &t), claimed)).await?.into_inner();
            while stream.message().await?.is_some() {}
            Ok(())
        };
        out.push((what, verdict(r.await)));
    }
    for (ns, t) in [("cluster", "Members.cluster.talos.dev"), ("config", "MachineConfigs.config.talos.dev")] {
        let watch = async {
            let req = cosi::WatchRequest {
                namespace: ns.into(),
                r#type: t.into(),
                id: None,
                options: Some(cosi::WatchOptions { bootstrap_contents: true, ..Default::default() }),
                api_version: 1,
            };
            let mut stream = state.watch(to_worker(req, claimed)).await?.into_inner();
            stream.message().await?;
            Ok(())
        };
        out.push((format!("Watch {t}"), verdict(watch.await)));
    }
    let get = cosi::GetRequest {
        namespace: "config".into(),
        r#type: "MachineConfigs.config.talos.dev".into(),
        id: "v1alpha1".into(),
        options: None,
    };
    out.push(("Get MachineConfig".to_string(), verdict(state.get(to_worker(get, claimed)).await.map(|_| ()))));
    out.iter().map(|(what, v)| format!("{what}: {v}\n")).collect()
}

#[tokio::test]
async fn each_role_gets_what_talos_allows() {
    let sim = Sim::start().await.expect("sim");
    let mut table = String::new();
    for role in ["admin", "operator", "reader"] {
        table.push_str(&format!("== os:{role}\n{}", outcomes(&sim, sim.identity(role).expect("role"), &[]).await));
    }
    let unknown = sim.pki().client_cert(&["os:future"], ClientUsage::ClientAuth, Validity::Current).expect("cert");
    table.push_str(&format!("== os:future (no known role)\n{}", outcomes(&sim, &unknown, &[]).await));
    let impersonator =
        sim.pki().client_cert(&["os:impersonator"], ClientUsage::ClientAuth, Validity::Current).expect("cert");
    table
        .push_str(&format!("== os:impersonator as os:reader\n{}", outcomes(&sim, &impersonator, &["os:reader"]).await));
    let reader = sim.identity("reader").expect("reader");
    table.push_str(&format!(
        "== os:reader claiming os:admin (ignored)\n{}",
        outcomes(&sim, reader, &["os:admin"]).await
    ));
    insta::assert_snapshot!(table, @r#"
        == os:admin
        Version: ok
        ServiceList: ok
        Kubeconfig (control plane): ok
        ApplyConfiguration: InvalidArgument: config not found
        Logs machined: ok
        List HostnameStatuses.net.talos.dev: ok
        List MachineConfigs.config.talos.dev: ok
        List Members.cluster.talos.dev: ok
        List Nodenames.kubernetes.talos.dev: ok
        List Namespaces.meta.cosi.dev: ok
        List ResourceDefinitions.meta.cosi.dev: ok
        List Services.v1alpha1.talos.dev: ok
        List Nope.talos.dev: PermissionDenied: resource type "Nope.talos.dev" is not supported
        List Members in nope: PermissionDenied: namespace "nope" is not supported
        Watch Members.cluster.talos.dev: ok
        Watch MachineConfigs.config.talos.dev: ok
        Get MachineConfig: ok
        == os:operator
        Version: ok
        ServiceList: ok
        Kubeconfig (control plane): PermissionDenied: not authorized
        ApplyConfiguration: PermissionDenied: not authorized
        Logs machined: ok
        List HostnameStatuses.net.talos.dev: ok
        List MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        List Members.cluster.talos.dev: ok
        List Nodenames.kubernetes.talos.dev: ok
        List Namespaces.meta.cosi.dev: ok
        List ResourceDefinitions.meta.cosi.dev: ok
        List Services.v1alpha1.talos.dev: ok
        List Nope.talos.dev: PermissionDenied: resource type "Nope.talos.dev" is not supported
        List Members in nope: PermissionDenied: namespace "nope" is not supported
        Watch Members.cluster.talos.dev: ok
        Watch MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        Get MachineConfig: PermissionDenied: not authorized
        == os:reader
        Version: ok
        ServiceList: ok
        Kubeconfig (control plane): PermissionDenied: not authorized
        ApplyConfiguration: PermissionDenied: not authorized
        Logs machined: ok
        List HostnameStatuses.net.talos.dev: ok
        List MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        List Members.cluster.talos.dev: ok
        List Nodenames.kubernetes.talos.dev: ok
        List Namespaces.meta.cosi.dev: ok
        List ResourceDefinitions.meta.cosi.dev: ok
        List Services.v1alpha1.talos.dev: ok
        List Nope.talos.dev: PermissionDenied: resource type "Nope.talos.dev" is not supported
        List Members in nope: PermissionDenied: namespace "nope" is not supported
        Watch Members.cluster.talos.dev: ok
        Watch MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        Get MachineConfig: PermissionDenied: not authorized
        == os:future (no known role)
        Version: PermissionDenied: not authorized
        ServiceList: PermissionDenied: not authorized
        Kubeconfig (control plane): PermissionDenied: not authorized
        ApplyConfiguration: PermissionDenied: not authorized
        Logs machined: PermissionDenied: not authorized
        List HostnameStatuses.net.talos.dev: PermissionDenied: not authorized
        List MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        List Members.cluster.talos.dev: PermissionDenied: not authorized
        List Nodenames.kubernetes.talos.dev: PermissionDenied: not authorized
        List Namespaces.meta.cosi.dev: PermissionDenied: not authorized
        List ResourceDefinitions.meta.cosi.dev: PermissionDenied: not authorized
        List Services.v1alpha1.talos.dev: PermissionDenied: not authorized
        List Nope.talos.dev: PermissionDenied: not authorized
        List Members in nope: PermissionDenied: not authorized
        Watch Members.cluster.talos.dev: PermissionDenied: not authorized
        Watch MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        Get MachineConfig: PermissionDenied: not authorized
        == os:impersonator as os:reader
        Version: ok
        ServiceList: ok
        Kubeconfig (control plane): PermissionDenied: not authorized
        ApplyConfiguration: PermissionDenied: not authorized
        Logs machined: ok
        List HostnameStatuses.net.talos.dev: ok
        List MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        List Members.cluster.talos.dev: ok
        List Nodenames.kubernetes.talos.dev: ok
        List Namespaces.meta.cosi.dev: ok
        List ResourceDefinitions.meta.cosi.dev: ok
        List Services.v1alpha1.talos.dev: ok
        List Nope.talos.dev: PermissionDenied: resource type "Nope.talos.dev" is not supported
        List Members in nope: PermissionDenied: namespace "nope" is not supported
        Watch Members.cluster.talos.dev: ok
        Watch MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        Get MachineConfig: PermissionDenied: not authorized
        == os:reader claiming os:admin (ignored)
        Version: ok
        ServiceList: ok
        Kubeconfig (control plane): PermissionDenied: not authorized
        ApplyConfiguration: PermissionDenied: not authorized
        Logs machined: ok
        List HostnameStatuses.net.talos.dev: ok
        List MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        List Members.cluster.talos.dev: ok
        List Nodenames.kubernetes.talos.dev: ok
        List Namespaces.meta.cosi.dev: ok
        List ResourceDefinitions.meta.cosi.dev: ok
        List Services.v1alpha1.talos.dev: ok
        List Nope.talos.dev: PermissionDenied: resource type "Nope.talos.dev" is not supported
        List Members in nope: PermissionDenied: namespace "nope" is not supported
        Watch Members.cluster.talos.dev: ok
        Watch MachineConfigs.config.talos.dev: PermissionDenied: not authorized
        Get MachineConfig: PermissionDenied: not authorized
        "#);
}
