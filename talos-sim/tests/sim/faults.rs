//! The client under faults, over real mutual TLS on 127.0.0.1 through a fault-injecting proxy
//! ([`crate::proxy`]) or the simulator's own switch: connections reset in the middle of a call
//! and of a log stream, a node restarted between calls, a node that stops answering, an apply
//! refused while another runs, and a connection lost after an apply was sent.

use std::time::Duration;

use talos_client::{ApplyOptions, Client, ClientOptions, Code, ErrorKind, LogsRequest, Target};
use talos_sim::Sim;

use crate::proxy::Proxy;

const WORKER: &str = "10.5.0.3";

/// A simulator, a proxy in front of its control plane's endpoint, and a client connected through
/// the proxy.
async fn through_proxy(options: ClientOptions) -> (Sim, Proxy, Client) {
    let sim = Sim::start().await.expect("simulator");
    let proxy = Proxy::start(sim.controlplane.endpoint).await;
    let config = Sim::talosconfig_with(&proxy.addr().to_string(), sim.pki().ca_pem(), sim.admin());
    let client = Client::connect(&config, options).await.expect("client");
    (sim, proxy, client)
}

/// The worker's active config with one more node label.
async fn relabelled(client: &Client) -> (Vec<u8>, u64) {
    let active = client.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("config");
    let patch = talos_config::load_patches([talos_config::PatchSource::new(
        "label",
        "machine:\n  nodeLabels:\n    fault: injected\n",
    )])
    .expect("patch");
    (talos_config::apply_patches(&active.bytes, &patch).expect("patched"), active.version.parse().expect("a number"))
}

#[tokio::test]
async fn a_read_whose_answer_is_lost_is_sent_again_on_a_fresh_connection() {
    let (_sim, proxy, client) = through_proxy(ClientOptions::default()).await;
    let worker = Target::node(WORKER);
    let expected = client.version(&worker).await.expect("version");
    proxy.drop_next_answers(1);
    assert_eq!(client.version(&worker).await.expect("retried"), expected);
    assert_eq!(proxy.accepted(), 2, "one fresh connection for the retry");
}

#[tokio::test]
async fn a_read_lost_twice_says_so_with_its_cause() {
    let (_sim, proxy, client) = through_proxy(ClientOptions::default()).await;
    let worker = Target::node(WORKER);
    let services = client.service_list(&worker).await.expect("services");
    proxy.drop_next_answers(2);
    let err = client.service_list(&worker).await.expect_err("lost twice");
    assert_eq!((err.kind(), err.call(), err.node()), (ErrorKind::ConnectionLost, Some("ServiceList"), Some(WORKER)));
    assert_eq!(err.code(), Some(Code::Unavailable));
    // The retry's connection was cut too, this time in its TLS handshake.
    assert_eq!(
        err.to_string(),
        "10.5.0.3: the connection was lost during ServiceList (tls handshake eof: transport error), and again on a \
         fresh connection: check that the node is up and run the command again"
    );
    assert!(std::error::Error::source(&err).is_some(), "the transport error is kept as the source");
    assert_eq!(proxy.accepted(), 2, "tried twice, not more");
    assert_eq!(client.service_list(&worker).await.expect("works again"), services);
}

#[tokio::test]
async fn a_node_restarted_between_calls_is_reconnected_on_the_next_call() {
    let (_sim, proxy, client) = through_proxy(ClientOptions::default()).await;
    let worker = Target::node(WORKER);
    let before = client.members(&worker).await.expect("members");
    proxy.reset_all();
    assert_eq!(client.members(&worker).await.expect("after the restart"), before);
    proxy.reset_all();
    assert_eq!(client.version(&Target::Endpoint).await.expect("again").tag, "v1.13.10");
    assert_eq!(proxy.accepted(), 3);
}

#[tokio::test]
async fn a_log_stream_cut_in_the_middle_says_how_far_it_got() {
    let (_sim, proxy, client) = through_proxy(ClientOptions::default()).await;
    let request = LogsRequest { id: "machined".into(), kubernetes: false, follow: true, tail: Some(2) };
    let mut stream = client.logs(&Target::node(WORKER), &request).await.expect("stream");
    for _ in 0..2 {
        stream.next_line().await.expect("a line").expect("not an error");
    }
    proxy.reset_all();
    let err = tokio::time::timeout(Duration::from_secs(10), stream.next_line())
        .await
        .expect("the stream ends")
        .expect("with an item")
        .expect_err("an error");
    assert_eq!((err.kind(), err.call(), err.node()), (ErrorKind::ConnectionLost, Some("Logs"), Some(WORKER)));
    assert_eq!(
        err.to_string(),
        "10.5.0.3: the connection was lost during Logs after 2 lines (h2 protocol error: error reading a body from \
         connection: peer closed connection without sending TLS close_notify): check that the node is up and run \
         the command again"
    );
    assert!(stream.next_line().await.is_none(), "the stream is over and is not reopened");
    assert_eq!(proxy.accepted(), 1);
}

#[tokio::test]
async fn a_node_that_stops_answering_meets_the_call_deadline() {
    let options = ClientOptions { call_timeout: Duration::from_millis(300), ..ClientOptions::default() };
    let (_sim, proxy, client) = through_proxy(options).await;
    let worker = Target::node(WORKER);
    client.version(&worker).await.expect("version");
    proxy.stall(true);
    let err = client.version(&worker).await.expect_err("no answer");
    assert_eq!(
        (err.kind(), err.call(), err.code()),
        (ErrorKind::Timeout, Some("Version"), Some(Code::DeadlineExceeded))
    );
    assert_eq!(
        err.to_string(),
        "10.5.0.3: no answer to Version within 300ms: the node may be rebooting, overloaded or unreachable; check \
         that it is up, or allow more time (the client's call timeout)"
    );
    proxy.stall(false);
    assert_eq!(client.version(&worker).await.expect("answers again").tag, "v1.13.10");
}

#[tokio::test]
async fn an_apply_refused_while_another_runs_is_not_retried() {
    let (sim, _proxy, client) = through_proxy(ClientOptions::default()).await;
    let (patched, version) = relabelled(&client).await;
    let hold = sim.worker.node.hold_applies().expect("no apply running");
    let err = client
        .apply_configuration(&Target::node(WORKER), &patched, ApplyOptions::default())
        .await
        .expect_err("another apply runs");
    assert_eq!(
        (err.kind(), err.node(), err.code()),
        (ErrorKind::ApplyInProgress, Some(WORKER), Some(Code::FailedPrecondition))
    );
    assert_eq!(
        err.to_string(),
        "10.5.0.3: rpc error: code = FailedPrecondition desc = another apply configuration is already in progress"
    );
    drop(hold);
    let after = client.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("config");
    assert_eq!(
        after.version,
        version.to_string(),
        "nothing applied, and nothing sent again once the other apply ended"
    );
}

#[tokio::test]
async fn an_apply_whose_answer_is_lost_has_an_unknown_outcome_and_is_not_sent_again() {
    let (_sim, proxy, client) = through_proxy(ClientOptions::default()).await;
    let (patched, version) = relabelled(&client).await;
    proxy.drop_next_answers(1);
    let err = client
        .apply_configuration(&Target::node(WORKER), &patched, ApplyOptions::default())
        .await
        .expect_err("the answer is lost");
    assert_eq!(
        (err.kind(), err.call(), err.node()),
        (ErrorKind::OutcomeUnknown, Some("ApplyConfiguration"), Some(WORKER))
    );
    assert_eq!(
        err.to_string(),
        "10.5.0.3: ApplyConfiguration was sent, but its answer never came (transport error: connection error: peer \
         closed connection without sending TLS close_notify): the configuration may or may not have been applied; \
         compare the node's MachineConfig version with the one before (`talosctl -n 10.5.0.3 get machineconfig`), \
         then decide whether to apply again"
    );
    assert_eq!(proxy.accepted(), 1, "not sent again");
    // What the error says to do: the version tells. Here the node did apply it, once.
    let after = client.machine_config(&Target::node(WORKER), "v1alpha1").await.expect("config");
    assert_eq!((after.version, after.bytes), ((version + 1).to_string(), patched));
}

#[tokio::test]
async fn an_apply_without_an_answer_in_time_has_an_unknown_outcome() {
    let options = ClientOptions { call_timeout: Duration::from_millis(300), ..ClientOptions::default() };
    let (_sim, proxy, client) = through_proxy(options).await;
    let (patched, _) = relabelled(&client).await;
    proxy.stall(true);
    let err = client
        .apply_configuration(&Target::node(WORKER), &patched, ApplyOptions::default())
        .await
        .expect_err("no answer");
    assert_eq!((err.kind(), err.call()), (ErrorKind::OutcomeUnknown, Some("ApplyConfiguration")));
    assert_eq!(
        err.to_string(),
        "10.5.0.3: ApplyConfiguration was sent, but its answer never came (no answer within 300ms): the \
         configuration may or may not have been applied; compare the node's MachineConfig version with the one \
         before (`talosctl -n 10.5.0.3 get machineconfig`), then decide whether to apply again"
    );
    proxy.stall(false);
}
