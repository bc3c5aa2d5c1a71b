//! Opening the mutual TLS channel to the first reachable endpoint, and the raw gRPC clients on it.

use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

use super::{Client, ClientOptions};
use crate::config::{Context, Endpoint, Talosconfig};
use crate::error::{Error, Result, TlsRefusal, chain_text, go_duration};
use crate::proto::cosi::resource::state_client::StateClient;
use crate::proto::machine::machine_service_client::MachineServiceClient;

/// The receive limit talosctl uses (`constants.GRPCMaxMessageSize`).
pub const MAX_MESSAGE_SIZE: usize = 32 << 20;

impl Client {
    /// Connects to the first reachable endpoint of the context chosen by `options.context`, with mutual TLS:
    /// the context's CA(s) verify the server (IP or DNS name of the endpoint), its certificate and key identify us.
    pub async fn connect(config: &Talosconfig, options: ClientOptions) -> Result<Client> {
        let context = config.context(options.context.as_deref())?;
        Client::connect_context(context, options).await
    }

    /// Like [`Client::connect`], with a context given directly.
    pub async fn connect_context(context: &Context, options: ClientOptions) -> Result<Client> {
        context.check_pki()?;
        let endpoints = context.parsed_endpoints()?;
        let mut last = None;
        for endpoint in endpoints {
            match Client::connect_endpoint(context, &endpoint, &options).await {
                Ok(channel) => return Ok(Client { channel, endpoint, options, refusal: Default::default() }),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::config("failed to determine endpoints")))
    }

    async fn connect_endpoint(context: &Context, endpoint: &Endpoint, options: &ClientOptions) -> Result<Channel> {
        let fail = |message: String| Error::connect(endpoint.to_string(), message, None);
        let mut tls = ClientTlsConfig::new()
            .identity(Identity::from_pem(context.crt_pem(), context.key_pem_for_rustls()))
            .domain_name(endpoint.host.clone());
        for ca in context.ca_certificates() {
            tls = tls.ca_certificate(Certificate::from_pem(ca));
        }
        let ep = tonic::transport::Endpoint::from_shared(endpoint.uri())
            .map_err(|e| fail(error_chain(&e)))?
            .tls_config(tls)
            .map_err(|e| fail(error_chain(&e)))?
            .connect_timeout(options.connect_timeout)
            .tcp_nodelay(true)
            // No HTTP/2 keepalive pings: apid answers pings more often than every 5 minutes with GOAWAY.
            .keep_alive_while_idle(false);
        match tokio::time::timeout(options.connect_timeout, ep.connect()).await {
            Ok(Ok(channel)) => Ok(channel),
            Ok(Err(e)) => match TlsRefusal::find(&endpoint.to_string(), &e) {
                Some(refusal) => Err(Error::tls_refused(refusal)),
                None => Err(Error::connect(endpoint.to_string(), error_chain(&e), Some(Box::new(e)))),
            },
            Err(_) => Err(fail(format!("timed out after {}", go_duration(options.connect_timeout)))),
        }
    }

    /// The endpoint in use.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The underlying channel (for calls this crate does not wrap).
    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// A raw MachineService client with the 32 MiB limit.
    pub fn machine(&self) -> MachineServiceClient<Channel> {
        MachineServiceClient::new(self.channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_SIZE)
            .max_encoding_message_size(MAX_MESSAGE_SIZE)
    }

    /// A raw COSI State client with the 32 MiB limit.
    pub fn state(&self) -> StateClient<Channel> {
        StateClient::new(self.channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_SIZE)
            .max_encoding_message_size(MAX_MESSAGE_SIZE)
    }
}

fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    chain_text(e.to_string(), e.source())
}
